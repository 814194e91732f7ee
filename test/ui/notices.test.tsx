// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useDatasets } from '../../src/state/datasets';
import { Notices } from '../../src/ui/Notices';

afterEach(() => {
  cleanup();
  useDatasets.setState({ notices: [], selectedId: null });
});

describe('Notices belong to their dataset', () => {
  it("shows a dataset's notices with that dataset only, and the tab's own notices always", () => {
    useDatasets.setState({
      selectedId: 1,
      notices: [
        { kind: 'warning', text: 'Host guessed in log one', datasetId: 1 },
        { kind: 'warning', text: '3 problems read past in log two', datasetId: 2 },
        { kind: 'info', text: 'Busy with big.warc.gz' },
      ],
    });
    render(<Notices />);
    expect(screen.queryByText('Host guessed in log one')).not.toBeNull();
    expect(screen.queryByText('3 problems read past in log two')).toBeNull();
    expect(screen.queryByText('Busy with big.warc.gz')).not.toBeNull();
    act(() => useDatasets.setState({ selectedId: 2 }));
    expect(screen.queryByText('Host guessed in log one')).toBeNull();
    expect(screen.queryByText('3 problems read past in log two')).not.toBeNull();
  });

  it('dismisses the notice clicked, also when others are hidden before it', () => {
    useDatasets.setState({
      selectedId: 2,
      notices: [
        { kind: 'warning', text: 'one', datasetId: 1 },
        { kind: 'warning', text: 'two', datasetId: 2 },
      ],
    });
    render(<Notices />);
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(useDatasets.getState().notices.map((n) => n.text)).toEqual(['one']);
  });
});
