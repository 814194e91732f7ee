// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { likelySubstringRule, type Rule } from '../../src/core/dust';
import { useDust } from '../../src/state/dust';
import { useLayout } from '../../src/state/layout';
import { PaneFrame, usePaneWidth } from '../../src/ui/PaneFrame';
import { RuleTable } from '../../src/ui/dust/RuleTable';

afterEach(cleanup);
beforeEach(() => {
  useLayout.setState({ enlarged: null });
  useDust.setState({ selectedRule: null, sort: { key: 'rank', dir: 1 } });
});

function Width() {
  return <span data-testid="width">{usePaneWidth()}</span>;
}

function frames() {
  return render(
    <>
      <PaneFrame id="clusters" title="Duplicate clusters">
        <section className="pane" aria-label="Duplicate clusters">
          clusters <Width />
        </section>
      </PaneFrame>
      <PaneFrame id="dust" title="DUST rules">
        <section className="pane" aria-label="DUST rules">
          rules
        </section>
      </PaneFrame>
    </>,
  );
}

describe('enlarging a pane', () => {
  it('Enlarge hides the other panes and turns into Restore; Escape restores, keeping the button focused', () => {
    const { container } = frames();
    const button = screen.getByRole('button', { name: 'Enlarge DUST rules' });
    button.focus();
    fireEvent.click(button);
    expect(useLayout.getState().enlarged).toBe('dust');
    expect(screen.getByRole('button', { name: 'Restore' })).toBe(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(container.querySelector('[data-pane="clusters"]')).toHaveAttribute('hidden');
    expect(container.querySelector('[data-pane="dust"]')).not.toHaveAttribute('hidden');
    act(() => {
      fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    });
    expect(useLayout.getState().enlarged).toBeNull();
    expect(container.querySelector('[data-pane="clusters"]')).not.toHaveAttribute('hidden');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Enlarge DUST rules' }));
  });

  it('Escape does nothing when no pane is enlarged, or when a control inside already used it', () => {
    frames();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(useLayout.getState().enlarged).toBeNull();
    act(() => useLayout.getState().enlarge('clusters'));
    const ev = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    ev.preventDefault();
    act(() => {
      document.body.dispatchEvent(ev);
    });
    expect(useLayout.getState().enlarged).toBe('clusters');
  });

  it('gives its pane a width of 0 until measured (jsdom has no ResizeObserver)', () => {
    frames();
    expect(screen.getByTestId('width')).toHaveTextContent('0');
  });
});

function rules(n: number): Rule[] {
  return Array.from({ length: n }, (_, i) =>
    likelySubstringRule('s.test', ['/', `a${i}`], ['/', `b${i}`], { id: i + 1, support: 10 - i }),
  );
}

describe('the DUST rule table from the keyboard', () => {
  it('is one tab stop; arrows move focus between rows, Enter opens the rule, Space closes it', () => {
    const rows = rules(4);
    render(<RuleTable rows={rows} saved={{ 1: 3 }} />);
    const trs = screen.getAllByRole('row').slice(1);
    expect(trs.map((r) => r.tabIndex)).toEqual([0, -1, -1, -1]);
    trs[0].focus();
    fireEvent.keyDown(trs[0], { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getAllByRole('row')[3]);
    expect(
      screen
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.tabIndex),
    ).toEqual([-1, -1, 0, -1]);
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(useDust.getState().selectedRule).toBe(3);
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(screen.getAllByRole('row')[4]);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    fireEvent.keyDown(document.activeElement!, { key: ' ' });
    expect(useDust.getState().selectedRule).toBe(1);
    fireEvent.keyDown(document.activeElement!, { key: ' ' });
    expect(useDust.getState().selectedRule).toBeNull();
  });

  it('shows every column, spells rules from core, and sorts from header buttons', () => {
    const rows = rules(2);
    // The second rule holds in one section of its site only (core/dust/scope.ts): its badge says so.
    rows[1].scope = { sections: ['http://s.test/docs/'], applicable: 3, instances: 4 };
    render(<RuleTable rows={rows} saved={{ 1: 3 }} only={{ 1: 2 }} />);
    const heads = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(heads).toEqual(['# ▲', 'Rule α → β', 'Site', 'Support', 'Similar', 'Status', 'Saved', 'Adds']);
    expect(screen.getAllByRole('row')[2]).toHaveTextContent('in 1 section');
    expect(screen.getByText('in 1 section')).toHaveAttribute(
      'title',
      expect.stringMatching(/http:\/\/s\.test\/docs\//),
    );
    expect(screen.getByRole('button', { name: 'Adds' })).toHaveAttribute(
      'title',
      expect.stringMatching(/beyond the others/),
    );
    expect(screen.getAllByRole('row')[1]).toHaveTextContent('/a0 → /b0');
    expect(screen.getByRole('button', { name: 'Saved' })).toHaveAttribute(
      'title',
      expect.stringMatching(/URLs saved/),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Support' }));
    expect(useDust.getState().sort).toEqual({ key: 'support', dir: -1 });
  });
});
