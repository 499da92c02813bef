import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { SelectField } from '@/components/form/fields';
import { Form } from '@/components/form/form';

const options = [
  { value: 't1', label: '王老师' },
  { value: 't2', label: '李老师' },
];

function Harness({ required }: { required?: boolean }) {
  const form = useForm<{ teacherId: string }>({ defaultValues: { teacherId: 't1' } });
  const value = form.watch('teacherId');
  return (
    <Form {...form}>
      <SelectField name="teacherId" label="班主任" required={required} options={options} />
      <output data-testid="value">{value}</output>
    </Form>
  );
}

describe('SelectField', () => {
  it('an optional select with a value can be cleared back to none from the keyboard; the button says what it clears', async () => {
    render(<Harness />);
    expect(screen.getByRole('combobox', { name: '班主任' })).toHaveTextContent('王老师');
    await userEvent.tab();
    await userEvent.tab();
    const clear = screen.getByRole('button', { name: '清除班主任' });
    expect(clear).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('value')).toHaveTextContent('');
    expect(screen.getByRole('combobox', { name: '班主任' })).toHaveTextContent('请选择');
    expect(screen.queryByRole('button', { name: '清除班主任' })).not.toBeInTheDocument();
  });

  it('a required select has no clear button', () => {
    render(<Harness required />);
    expect(screen.queryByRole('button', { name: /清除/ })).not.toBeInTheDocument();
  });
});
