import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { DEVICE_STATUS_TABLE } from '@/domain/venue/devices';
import { STUDENT_STATUS_TABLE } from '@/domain/people/students';

describe('EnumBadge', () => {
  it('shows a state in words, coloured by its tone', () => {
    render(
      <>
        <EnumBadge table={DEVICE_STATUS_TABLE} value="online" data-testid="online" />
        <EnumBadge table={DEVICE_STATUS_TABLE} value="disabled" data-testid="disabled" />
        <EnumBadge table={STUDENT_STATUS_TABLE} value="transferred" data-testid="transferred" />
      </>,
    );
    expect(screen.getByTestId('online')).toHaveTextContent('在线');
    expect(screen.getByTestId('online')).toHaveAttribute('data-variant', 'success');
    expect(screen.getByTestId('disabled')).toHaveAttribute('data-variant', 'destructive');
    expect(screen.getByTestId('transferred')).toHaveTextContent('转出');
    expect(screen.getByTestId('transferred')).toHaveAttribute('data-variant', 'outline');
  });

  it('shows a value it does not know as it is, plain', () => {
    render(<EnumBadge table={DEVICE_STATUS_TABLE} value="rebooting" data-testid="b" />);
    expect(screen.getByTestId('b')).toHaveTextContent('rebooting');
    expect(screen.getByTestId('b')).toHaveAttribute('data-variant', 'outline');
  });
});
