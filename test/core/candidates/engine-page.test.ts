import { describe, expect, it } from 'vitest';
import { enginePage } from '../../../src/core/candidates/comparable';

const page = {
  textLength: 12,
  recordType: 'response',
  status: 200,
  normUrl: 'http://a.test/x',
  fingerprint: 'f1',
};
const content = { text: 'hello world!', outlinks: ['http://a.test/y'], templateHints: [3] };

describe('enginePage', () => {
  it('gives the engine its page: text, URL, outlinks, fingerprint and template hints', () => {
    expect(enginePage(page, content)).toEqual({
      text: 'hello world!',
      normUrl: 'http://a.test/x',
      fetchedAt: '',
      outlinks: ['http://a.test/y'],
      fingerprint: 'f1',
      templateHints: [3],
    });
  });

  it('leaves out revisits, failed statuses, pages without text and unread contents', () => {
    expect(enginePage({ ...page, recordType: 'revisit' }, content)).toBeNull();
    expect(enginePage({ ...page, status: 404 }, content)).toBeNull();
    expect(enginePage({ ...page, textLength: 0 }, content)).toBeNull();
    expect(enginePage(page, { ...content, text: '' })).toBeNull();
    expect(enginePage(page, undefined)).toBeNull();
    // An unknown status (URL lists, some logs) is comparable.
    expect(enginePage({ ...page, status: 0 }, content)).not.toBeNull();
  });
});
