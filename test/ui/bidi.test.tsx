// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db, type StoredPage } from '../../src/db/schema';
import { writeBatch } from '../../src/db/page-writes';
import { newDataset } from '../../src/db/queries';
import { usePages } from '../../src/state/pages';
import { escapeBidi } from '../../src/ui/format';
import { PageDetail } from '../../src/ui/PageDetail';
import { PagesTable } from '../../src/ui/PagesTable';
import { Url } from '../../src/ui/Url';

/** Every bidirectional control UAX #9 defines: embeddings, overrides, isolates and the three marks. */
const CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const RLO_URL = 'http://bidi.test/\u202Egnp.exe/doc';

afterEach(cleanup);

describe('bidirectional controls in crawled text', () => {
  it('escapeBidi writes every control out where it stands and leaves other text alone', () => {
    const all = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    expect(escapeBidi(`a${all}b`)).toBe(
      'a⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+202E⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩b',
    );
    const plain = 'http://x.test/שלום/مرحبا?q=中文\u200b';
    expect(escapeBidi(plain)).toBe(plain);
  });

  it('shows http://bidi.test/\\u202Egnp.exe/doc with the override visible and the text in stored order', () => {
    const { container } = render(<Url url={RLO_URL} />);
    const span = container.querySelector('.url')!;
    expect(span.textContent).toBe('http://bidi.test/⟨U+202E⟩gnp.exe/doc');
    // The characters follow each other as stored: nothing reverses "gnp.exe/doc" into "cod/exe.png".
    const shown = span.textContent!;
    expect(shown.indexOf('⟨U+202E⟩')).toBeLessThan(shown.indexOf('gnp.exe/doc'));
    expect(shown).not.toContain('cod/exe.png');
    expect(span.getAttribute('title')).toBe(shown);
    expect(container.innerHTML).not.toMatch(CONTROLS);
  });

  it('escapes the hover text and screen-reader label of a shortened URL too', () => {
    const long = `http://bidi.test/${'a'.repeat(80)}\u2067x\u2069/end.html`;
    const { container } = render(<Url url={long} max={40} />);
    const span = container.querySelector('.url')!;
    expect(span.getAttribute('title')).toBe(`http://bidi.test/${'a'.repeat(80)}⟨U+2067⟩x⟨U+2069⟩/end.html`);
    expect(span.getAttribute('aria-label')).toBe(span.getAttribute('title'));
    expect(container.innerHTML).not.toMatch(CONTROLS);
  });
});

function page(datasetId: number, seq: number, url: string, title: string): StoredPage {
  return {
    datasetId,
    seq,
    url,
    normUrl: url,
    host: 'bidi.test',
    status: 200,
    statuses: [200],
    mime: 'text/html',
    sizeMin: 100,
    sizeMax: 100,
    hits: 1,
    fetchedAt: '',
    recordType: 'response',
    title,
    textLength: 5,
    fingerprint: '0123456789abcdef',
    digest: '',
    charset: 'utf-8',
    revisitOf: -1,
    offset: 0,
    note: '',
  };
}

describe('pages table and page detail', () => {
  beforeEach(async () => {
    const d = db();
    await Promise.all([d.datasets.clear(), d.pageChunks.clear(), d.chunks.clear()]);
    usePages.setState({ datasetId: null, pages: [], selectedSeq: null, content: null, revisited: null });
  });

  it('show URLs, titles, headers and outlinks with their controls escaped, never applied', async () => {
    const d = db();
    const id = await d.datasets.add(
      newDataset({ name: 'bidi.warc', fileName: 'bidi.warc', bytes: 1, format: 'warc', compressed: false }),
    );
    await d.datasets.update(id, { status: 'ready', pages: 1 });
    const link = 'http://bidi.test/\u2066txt.exe\u2069';
    await writeBatch(d, id, [
      {
        page: page(id, 0, RLO_URL, 'Invoice \u202Efdp.exe'),
        content: {
          seq: 0,
          text: 'hello',
          outlinks: [link],
          rawOutlinks: [link],
          headers: [['Location', 'http://bidi.test/\u200Fx']],
        },
      },
    ]);
    await act(() => usePages.getState().load(id));
    const { container } = render(
      <>
        <PagesTable />
        <PageDetail />
      </>,
    );
    const title = await screen.findByText('Invoice ⟨U+202E⟩fdp.exe');
    expect(title).toHaveAttribute('title', 'Invoice ⟨U+202E⟩fdp.exe');
    expect(container.querySelector('.td.c-url')).toHaveTextContent('http://bidi.test/⟨U+202E⟩gnp.exe/doc');
    fireEvent.click(title);
    expect(await screen.findByTestId('detail-title')).toHaveTextContent('Invoice ⟨U+202E⟩fdp.exe');
    const outlinks = await screen.findByTestId('outlinks');
    expect(within(outlinks).getByText('http://bidi.test/⟨U+2066⟩txt.exe⟨U+2069⟩')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Headers (1)'));
    const headers = await screen.findByRole('listbox', { name: 'Headers' });
    expect(within(headers).getByRole('option')).toHaveTextContent('Location: http://bidi.test/⟨U+200F⟩x');
    expect(container.innerHTML).not.toMatch(CONTROLS);
  });
});
