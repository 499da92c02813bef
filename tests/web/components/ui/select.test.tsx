import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Select } from '@/components/ui/select';

const options = [
  { value: 'run', label: '50米跑' },
  { value: 'rope', label: '1分钟跳绳' },
  { value: 'jump', label: '立定跳远', disabled: true },
];

describe('Select', () => {
  it('shows the translated placeholder when empty', () => {
    render(<Select options={options} aria-label="项目" />);
    expect(screen.getByRole('combobox', { name: '项目' })).toHaveTextContent('请选择');
  });

  it('choosing an option calls onValueChange', async () => {
    const onValueChange = vi.fn();
    render(<Select options={options} onValueChange={onValueChange} aria-label="项目" />);
    await userEvent.click(screen.getByRole('combobox', { name: '项目' }));
    await userEvent.click(await screen.findByRole('option', { name: '1分钟跳绳' }));
    expect(onValueChange).toHaveBeenCalledWith('rope');
  });

  it('shows the label of the current value', () => {
    render(<Select options={options} value="run" aria-label="项目" />);
    expect(screen.getByRole('combobox', { name: '项目' })).toHaveTextContent('50米跑');
  });
});
