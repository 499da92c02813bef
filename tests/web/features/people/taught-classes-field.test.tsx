import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { taughtClassSchema } from '@/domain/people/staff';
import { Form } from '@/components/form/form';
import { TaughtClassesField } from '@/features/people/staff/components/taught-classes-field';

const CLASS_1 = '00000000-0000-4000-8000-000000000001';
const schema = z.object({ taughtClasses: z.array(taughtClassSchema) });
type Values = z.input<typeof schema>;

function Harness({ initial }: { initial: Values['taughtClasses'] }) {
  const form = useForm<Values>({ defaultValues: { taughtClasses: initial }, resolver: zodResolver(schema) });
  const value = form.watch('taughtClasses');
  return (
    <Form {...form}>
      <form onSubmit={(e) => void form.handleSubmit(() => undefined)(e)}>
        <TaughtClassesField classes={[{ value: CLASS_1, label: '七年级1班' }]} />
        <button type="submit">保存</button>
      </form>
      <output data-testid="value">{JSON.stringify(value)}</output>
    </Form>
  );
}

describe('TaughtClassesField', () => {
  it('adds a row (PE by default) and removes the row it names', async () => {
    render(<Harness initial={[{ classId: CLASS_1, subject: 'health' }]} />);
    expect(screen.getByRole('combobox', { name: '第1行班级' })).toHaveTextContent('七年级1班');
    expect(screen.getByRole('combobox', { name: '第1行科目' })).toHaveTextContent('健康教育');
    await userEvent.click(screen.getByRole('button', { name: '添加任教班级' }));
    expect(screen.getByTestId('value')).toHaveTextContent(JSON.stringify([{ classId: CLASS_1, subject: 'health' }, { classId: '', subject: 'pe' }]));
    await userEvent.click(screen.getByRole('button', { name: '删除第1行' }));
    expect(screen.getByTestId('value')).toHaveTextContent(JSON.stringify([{ classId: '', subject: 'pe' }]));
    await userEvent.click(screen.getByRole('button', { name: '删除第1行' }));
    expect(screen.getByText('暂无任教班级')).toBeInTheDocument();
  });

  it('a row without a class is refused on save, the message under the list and the row marked', async () => {
    render(<Harness initial={[]} />);
    await userEvent.click(screen.getByRole('button', { name: '添加任教班级' }));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('请选择班级');
    expect(screen.getByRole('combobox', { name: '第1行班级' })).toHaveAttribute('aria-invalid', 'true');
  });
});
