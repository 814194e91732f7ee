// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoredAnalysis } from '../../src/db/schema';

vi.mock('../../src/workers/client', () => ({ Comlink: { proxy: <T,>(f: T) => f } }));
const { ThresholdSliders } = await import('../../src/ui/clusters/ThresholdSliders');
const { useAnalysis } = await import('../../src/state/analysis');
const { ENGINE_DEFAULTS } = await import('../../src/core/candidates/engine-params');

const analysis = (maxD: number, rpGrid: number) =>
  ({
    maxD,
    candidates: { rpGrid },
    params: ENGINE_DEFAULTS,
    bands: { bands: 49, rows: 2 },
  }) as unknown as StoredAnalysis;

afterEach(() => {
  cleanup();
  useAnalysis.setState({ analysis: null });
});

describe('the D slider', () => {
  it('ends where the RP pair budget cut the candidates, and says so', () => {
    useAnalysis.setState({ analysis: analysis(0.054, 200_000) });
    render(<ThresholdSliders method="rp-hm" />);
    expect(screen.getByRole('slider', { name: 'D' })).toHaveAttribute('max', '0.054');
    expect(screen.getByTestId('d-budget')).toHaveTextContent(
      'to 0.054: past it the RP grid proposes more pairs than its budget (40 a page); the 200,000 closest are kept',
    );
  });

  it('spans its whole range, without a note, when nothing was cut', () => {
    useAnalysis.setState({ analysis: analysis(0.1, 25_210) });
    render(<ThresholdSliders method="rp-hm" />);
    expect(screen.getByRole('slider', { name: 'D' })).toHaveAttribute('max', '0.1');
    expect(screen.queryByTestId('d-budget')).toBeNull();
  });
});
