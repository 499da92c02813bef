import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { loginFormSchema } from '@/domain/auth/schemas';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

type S = typeof loginFormSchema;

function LoginLikeForm({ onSubmit }: { onSubmit(v: z.output<S>): void }) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { accountNum: '', password: '', code: '' },
  });
  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <FormField
          control={form.control}
          name="accountNum"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>用户名</FormLabel>
              <FormControl>
                <Input {...field} />
              </FormControl>
              <FormDescription>账号或手机号</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>密码</FormLabel>
              <FormControl>
                <Input type="password" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="code"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>验证码</FormLabel>
              <FormControl>
                <Input {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <Button type="submit">登录</Button>
      </form>
    </Form>
  );
}

describe('Form', () => {
  it('submitting empty required fields shows the translated zh_cn messages', async () => {
    const onSubmit = vi.fn();
    render(<LoginLikeForm onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请填写登录用户名')).toBeInTheDocument();
    expect(screen.getByText('请填写登录密码')).toBeInTheDocument();
    expect(screen.getByText('请填写验证码')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('wires label, description, message and aria-invalid to the control', async () => {
    render(<LoginLikeForm onSubmit={() => {}} />);
    const input = screen.getByLabelText(/用户名/);
    expect(input).toHaveAttribute('aria-invalid', 'false');
    expect(input).toHaveAccessibleDescription('账号或手机号');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await screen.findByText('请填写登录用户名');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('账号或手机号 请填写登录用户名');
  });

  it('submits parsed values when valid', async () => {
    const onSubmit = vi.fn();
    render(<LoginLikeForm onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText(/用户名/), ' school01 ');
    await userEvent.type(screen.getByLabelText(/密码/), 'Tiyu@2026');
    await userEvent.type(screen.getByLabelText(/验证码/), '1234');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toEqual({ accountNum: 'school01', password: 'Tiyu@2026', code: '1234' });
  });
});
