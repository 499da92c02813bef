import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, useDateTime } from '@/lib/date-time';
import { i18next } from '@/lib/i18n';

// 16:30 UTC is half past midnight of the next day in China: a screen shows the China day, wherever the browser is.
const LATE = '2026-11-24T16:30:00Z';

describe('date and time on screens: the organisations’ clock in the reader’s language', () => {
  afterEach(async () => {
    await i18next.changeLanguage('zh_cn');
  });

  it('shows an instant in China time, in each language and style', () => {
    expect(formatDateTime(LATE, 'zh_cn')).toBe('2026/11/25 00:30');
    expect(formatDateTime(LATE, 'en_us')).toBe('11/25/26, 12:30 AM');
    expect(formatDateTime(LATE, 'en_us', 'seconds')).toBe('11/25/26, 12:30:00 AM');
    expect(formatDateTime(LATE, 'zh_tw', 'medium')).toContain('2026年11月25日');
    expect(formatDateTime(LATE, 'zh_cn', 'time')).toBe('00:30');
  });

  it('follows a language switch in a component', async () => {
    const { result } = renderHook(() => useDateTime());
    expect(result.current(LATE)).toBe('2026/11/25 00:30');
    await act(() => i18next.changeLanguage('en_us'));
    expect(result.current(LATE)).toBe('11/25/26, 12:30 AM');
  });
});
