import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { createResource } from '@/lib/resource';

const schema = z.object({ name: z.string().min(1, 'validation:class.nameRequired').max(30), code: z.coerce.number(), version: z.number().optional() });
type Row = { id: string; name: string; code: number; version: number };

function setup(save: (values: unknown, id?: string) => Promise<Row>, id?: string, presentation?: 'page' | 'drawer') {
  const resource = createResource<Row, z.output<typeof schema>>({ base: '/api/test' });
  // The record and the save are faked; everything else is the real resource and form.
  const fake = {
    ...resource,
    useGet: (rid: string | undefined) =>
      useQuery({ queryKey: ['test', rid], queryFn: () => Promise.resolve<Row>({ id: 'r1', name: '一班', code: 1, version: 3 }), enabled: Boolean(rid) }),
  };
  const spy = vi.fn(save);
  fake.useSave = () => {
    const m = resource.useSave(id);
    return { ...m, mutateAsync: spy } as unknown as ReturnType<typeof resource.useSave>;
  };
  const router = createMemoryRouter(
    [
      { path: '/list', element: <p>list page</p> },
      {
        path: '/form',
        element: (
          <FormScreen presentation={presentation} schema={schema} resource={fake} id={id} defaults={{ name: '', code: 1 }} toValues={(r) => r} title="新增班级" backTo="/list">
            {() => (
              <>
                <TextField name="name" label="班级名称" required />
                <TextField name="code" label="班级编号" />
              </>
            )}
          </FormScreen>
        ),
      },
    ],
    { initialEntries: ['/list', '/form'], initialIndex: 1 },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { spy, router };
}

describe('FormScreen', () => {
  it('takes maxLength from the schema and shows a server field error (400 naming the field) on that field', async () => {
    const { spy } = setup(() => Promise.reject(new ApiError('该年级下已有相同编号的班级', '400', 400, 'code')));
    const name = screen.getByLabelText(/班级名称/);
    expect(name).toHaveAttribute('maxLength', '30');
    await userEvent.type(name, '一年级1班');
    await userEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(spy).toHaveBeenCalled());
    const code = screen.getByLabelText('班级编号');
    expect(await screen.findByText('该年级下已有相同编号的班级')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks before leaving a changed form with the back-button words; leaves at once when unchanged', async () => {
    const { router } = setup(() => Promise.resolve({ id: 'x', name: 'a', code: 1, version: 1 }));
    await userEvent.click(screen.getByTestId('form-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/list'));
  });

  it('a changed form asks first; confirming leaves', async () => {
    const { router } = setup(() => Promise.resolve({ id: 'x', name: 'a', code: 1, version: 1 }));
    await userEvent.type(screen.getByLabelText(/班级名称/), '改动');
    await userEvent.click(screen.getByTestId('form-cancel'));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('是否返回上一页？');
    expect(dialog).toHaveTextContent('返回后当前页面的数据将不会保存。');
    expect(router.state.location.pathname).toBe('/form');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/list'));
  });

  it('sends the loaded version back when editing', async () => {
    const { spy } = setup(() => Promise.resolve({ id: 'r1', name: '一班', code: 1, version: 4 }), 'r1');
    await screen.findByDisplayValue('一班');
    await userEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(spy).toHaveBeenCalledWith(expect.objectContaining({ name: '一班', version: 3 })));
  });

  it('drawer: a right-side dialog with the same form; closing it (Esc) asks first when changed, at once when not', async () => {
    const { router } = setup(() => Promise.resolve({ id: 'x', name: 'a', code: 1, version: 1 }), undefined, 'drawer');
    const drawer = screen.getByRole('dialog', { name: '新增班级' });
    expect(drawer).toHaveAttribute('data-slot', 'form-drawer');
    await userEvent.type(screen.getByLabelText(/班级名称/), '改动');
    await userEvent.keyboard('{Escape}');
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('是否返回上一页？');
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/form');
    expect(screen.getByLabelText(/班级名称/)).toHaveValue('改动');
    await userEvent.click(screen.getByTestId('form-cancel'));
    await userEvent.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/list'));
  });

  it('drawer: an unchanged form closes at once (Esc)', async () => {
    const { router } = setup(() => Promise.resolve({ id: 'x', name: 'a', code: 1, version: 1 }), undefined, 'drawer');
    await screen.findByRole('dialog', { name: '新增班级' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/list'));
  });

  it('drawer: a server field error lands on the field', async () => {
    const { spy } = setup(() => Promise.reject(new ApiError('该年级下已有相同编号的班级', '400', 400, 'code')), undefined, 'drawer');
    await userEvent.type(screen.getByLabelText(/班级名称/), '一班');
    await userEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(spy).toHaveBeenCalled());
    expect(await screen.findByText('该年级下已有相同编号的班级')).toBeInTheDocument();
    expect(screen.getByLabelText('班级编号')).toHaveAttribute('aria-invalid', 'true');
  });
});
