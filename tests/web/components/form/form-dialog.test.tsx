import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppProvider } from '@/app/provider';
import { TextField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { ApiError } from '@/lib/api-client';
import { resetApp } from '../../app/fake-api';

const schema = z.object({ name: z.string().trim().min(1, 'validation:class.nameRequired').max(30), version: z.number().optional() });

function Harness({ submit, onDone }: { submit(values: z.output<typeof schema>): Promise<{ id: string }>; onDone?(r: { id: string }): void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        打开
      </button>
      <FormDialog open={open} onOpenChange={setOpen} schema={schema} defaults={{ name: '', version: 3 }} title="编辑班级" submit={submit} onDone={onDone} data-testid="dialog">
        {() => <TextField name="name" label="班级名称" required />}
      </FormDialog>
    </>
  );
}

function setup(submit: (values: z.output<typeof schema>) => Promise<{ id: string }>, onDone?: (r: { id: string }) => void) {
  const spy = vi.fn(submit);
  render(
    <AppProvider>
      <Harness submit={spy} onDone={onDone} />
    </AppProvider>,
  );
  return spy;
}

describe('FormDialog', () => {
  beforeEach(() => resetApp());

  it('checks with the domain schema: the translated message under the field, nothing sent; maxLength from the schema', async () => {
    const spy = setup(() => Promise.resolve({ id: '1' }));
    expect(screen.getByLabelText(/班级名称/)).toHaveAttribute('maxLength', '30');
    await userEvent.click(screen.getByTestId('form-save'));
    expect(await screen.findByText('请填写班级名称')).toBeInTheDocument();
    expect(spy).not.toHaveBeenCalled();
  });

  it('puts a server refusal naming a field under that field and keeps the dialog open', async () => {
    setup(() => Promise.reject(new ApiError('该年级下已有同名班级', '400', 400, 'name')));
    await userEvent.type(screen.getByLabelText(/班级名称/), '一班');
    await userEvent.click(screen.getByTestId('form-save'));
    expect(await screen.findByText('该年级下已有同名班级')).toBeInTheDocument();
    expect(screen.getByLabelText(/班级名称/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('dialog')).toBeInTheDocument();
  });

  it('says a stale save (409) in the dialog, keeps what was typed, and saves, toasts and closes on the next try', async () => {
    const onDone = vi.fn();
    let calls = 0;
    const spy = setup(() => (++calls === 1 ? Promise.reject(new ApiError('数据已被他人修改，请刷新后重试', '409', 409)) : Promise.resolve({ id: '1' })), onDone);
    await userEvent.type(screen.getByLabelText(/班级名称/), '一班');
    await userEvent.click(screen.getByTestId('form-save'));
    expect(await screen.findByRole('alert')).toHaveTextContent('数据已被他人修改，请刷新后重试');
    expect(screen.getByLabelText(/班级名称/)).toHaveValue('一班');
    await userEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(screen.queryByTestId('dialog')).toBeNull());
    expect(spy).toHaveBeenLastCalledWith({ name: '一班', version: 3 });
    expect(onDone).toHaveBeenCalledWith({ id: '1' });
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
  });

  it('is busy while saving: the button cannot be pressed again and Esc does not close it; Esc closes it after', async () => {
    let finish: (v: { id: string }) => void = () => undefined;
    const spy = setup(() => new Promise((resolve) => (finish = resolve)));
    await userEvent.type(screen.getByLabelText(/班级名称/), '一班');
    await userEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(screen.getByTestId('form-save')).toBeDisabled());
    await userEvent.keyboard('{Escape}');
    expect(screen.getByTestId('dialog')).toBeInTheDocument();
    expect(spy).toHaveBeenCalledTimes(1);
    finish({ id: '1' });
    await waitFor(() => expect(screen.queryByTestId('dialog')).toBeNull());
    // Opened again, it starts from its defaults.
    await userEvent.click(screen.getByRole('button', { name: '打开' }));
    expect(screen.getByLabelText(/班级名称/)).toHaveValue('');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('dialog')).toBeNull());
  });
});
