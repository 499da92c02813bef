import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm, useWatch } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { SelectField } from '@/components/form/fields';
import { Form } from '@/components/form/form';

function Harness({ initial }: { initial: string }) {
  const form = useForm({ defaultValues: { venueId: initial } });
  const value = useWatch({ control: form.control, name: 'venueId' });
  return (
    <Form {...form}>
      <SelectField name="venueId" label="场地" emptyOption="不关联场地" options={[{ value: 'v1', label: '田径场' }]} />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </Form>
  );
}

describe('SelectField emptyOption', () => {
  it('shows the empty choice for an unset value and clears a chosen one back to an empty string', async () => {
    render(<Harness initial="v1" />);
    const select = screen.getByRole('combobox', { name: '场地' });
    expect(select).toHaveTextContent('田径场');
    await userEvent.click(select);
    await userEvent.click(await screen.findByRole('option', { name: '不关联场地' }));
    expect(screen.getByTestId('value')).toHaveTextContent('""');
    expect(select).toHaveTextContent('不关联场地');
  });
});
