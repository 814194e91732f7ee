// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RuleSide } from '../../src/ui/dust/RuleTable';

afterEach(cleanup);

describe('a rule side', () => {
  it('reads "(nothing)" when empty, so `.html →` does not look cut off', () => {
    const { container } = render(
      <p>
        <RuleSide text=".html" /> → <RuleSide text="" />
      </p>,
    );
    expect(container.textContent).toBe('.html → (nothing)');
    expect(container.querySelector('.rule-empty-side')?.getAttribute('title')).toMatch(/empty string/);
  });

  it('shows crawled text as text, its bidi controls visible', () => {
    const { container } = render(<RuleSide text={'/a\u202Eb'} />);
    expect(container.innerHTML).not.toContain('\u202E');
  });
});
