// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { likelySubstringRule } from '../../src/core/dust';
import type { StoredDustRun } from '../../src/db/schema';
import type { StoredPage } from '../../src/db/schema';
import { useDust } from '../../src/state/dust';
import { usePages } from '../../src/state/pages';
import { INSTANCES_PER_PAGE, RuleDetail } from '../../src/ui/dust/RuleDetail';

// The side-by-side view reads page text from IndexedDB; this test is about the list.
vi.mock('../../src/ui/TextCompare', () => ({ TextCompare: () => null }));

afterEach(cleanup);

const page = (seq: number, url: string) =>
  ({ seq, url, normUrl: url, host: 's.test', datasetId: 1 }) as StoredPage;

describe('a rule’s detail', () => {
  it('pages through every instance of the list, negatives marked and listed first', () => {
    const n = 120;
    const pages: StoredPage[] = [];
    for (let k = 0; k < n; k++) {
      pages.push(page(2 * k, `http://s.test/a/${k}/index.html`), page(2 * k + 1, `http://s.test/a/${k}/`));
    }
    const rule = likelySubstringRule('s.test', ['/', 'index', '.', 'html', '$'], ['/', '$'], {
      id: 7,
      status: 'refuted',
      // Two instances came first in validation but are negatives; they must be marked wherever they are.
      negativeSamples: [
        ['http://s.test/a/99/index.html', 'http://s.test/a/99/'],
        ['http://s.test/a/100/index.html', 'http://s.test/a/100/'],
      ],
      instances: [['http://s.test/a/0/index.html', 'http://s.test/a/0/']],
    });
    usePages.setState({ pages, datasetId: 1 });
    useDust.setState({ run: { rules: [rule] } as unknown as StoredDustRun, selectedRule: 7 });
    render(<RuleDetail />);
    expect(screen.getByTestId('rule-instance-count')).toHaveTextContent(
      `Instances 1–${INSTANCES_PER_PAGE} of ${n} · 2 negatives sampled by validation (not similar), listed first`,
    );
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(INSTANCES_PER_PAGE);
    expect(options[0]).toHaveClass('negative');
    expect(options[0]).toHaveTextContent('not similar');
    expect(options[1]).toHaveClass('negative');
    expect(options[2]).not.toHaveClass('negative');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('rule-instance-count')).toHaveTextContent(`Instances 101–${n} of ${n}`);
    expect(screen.getAllByRole('option')).toHaveLength(n - 2 * INSTANCES_PER_PAGE);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
