import { zodResolver } from '@hookform/resolvers/zod';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { loginFormSchema } from '@/domain/auth/schemas';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';

type Schema = typeof loginFormSchema;

function LoginLikeForm({ validateOnMount = false }: { validateOnMount?: boolean }) {
  const { t } = useTranslation(['ui', 'common']);
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { accountNum: '', password: '', code: '' },
  });
  const { trigger } = form;
  useEffect(() => {
    if (validateOnMount) void trigger();
  }, [validateOnMount, trigger]);

  return (
    <Card className="max-w-sm">
      <CardContent>
        <Form {...form}>
          <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(() => toast.success(t('common:msg.operationOk')))}>
            <FormField
              control={form.control}
              name="accountNum"
              render={({ field }) => (
                <FormItem>
                  <FormLabel required>{t('demo.username')}</FormLabel>
                  <FormControl>
                    <Input autoComplete="username" {...field} />
                  </FormControl>
                  <FormDescription>{t('demo.usernameHint')}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="password"
              render={({ field }) => (
                <FormItem>
                  <FormLabel required>{t('demo.password')}</FormLabel>
                  <FormControl>
                    <Input type="password" autoComplete="current-password" {...field} />
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
                  <FormLabel required>{t('demo.code')}</FormLabel>
                  <FormControl>
                    <Input inputMode="numeric" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('demo.login')}
            </Button>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}

const meta = {
  title: 'Form/Form',
  component: LoginLikeForm,
  args: { validateOnMount: false },
} satisfies Meta<typeof LoginLikeForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Submit it empty: the zod messages are i18n keys, shown translated in the toolbar's language. */
export const Login: Story = {};

/** Validated on mount, so the translated errors show without interaction. */
export const WithErrors: Story = { args: { validateOnMount: true } };
