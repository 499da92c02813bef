import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DatePicker, formatDay, parseDay } from '@/components/ui/date-picker';

describe('DatePicker', () => {
  it('renders the value as YYYY-MM-DD', () => {
    render(<DatePicker value="2026-03-09" onChange={() => {}} aria-label="出生日期" />);
    // The name holds the label and the visible day (WCAG 2.5.3 label in name).
    expect(screen.getByRole('button', { name: '出生日期 2026-03-09' })).toHaveTextContent('2026-03-09');
  });

  it('shows the translated placeholder without a value', () => {
    render(<DatePicker onChange={() => {}} />);
    expect(screen.getByRole('button', { name: /选择日期/ })).toBeInTheDocument();
  });

  it('picking a day reports it as YYYY-MM-DD, with a Chinese calendar', async () => {
    const onChange = vi.fn();
    render(<DatePicker value="2026-03-09" onChange={onChange} aria-label="出生日期" />);
    await userEvent.click(screen.getByRole('button', { name: /^出生日期/ }));
    const grid = await screen.findByRole('grid');
    expect(grid).toHaveAccessibleName(/2026年3月|2026年03月|三月/);
    await userEvent.click(screen.getByRole('button', { name: /3月12日|3 月 12 日|12日/ }));
    expect(onChange).toHaveBeenCalledWith('2026-03-12');
  });

  it('the clear button empties the value', async () => {
    const onChange = vi.fn();
    render(<DatePicker value="2026-03-09" onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: '清除' }));
    expect(onChange).toHaveBeenCalledWith(undefined);
  });

  it('parses and formats local days without a time-zone shift', () => {
    expect(formatDay(parseDay('2026-01-31')!)).toBe('2026-01-31');
    expect(parseDay('2026-13-40')).toBeUndefined();
    expect(parseDay('')).toBeUndefined();
  });
});
