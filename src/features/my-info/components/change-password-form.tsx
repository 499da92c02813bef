import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { changePasswordFormSchema } from '@/domain/auth/schemas';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/domain/constants';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { useEditAccountMutation } from '../api/edit-account';

type PasswordInput = z.input<typeof changePasswordFormSchema>;
type PasswordOutput = z.output<typeof changePasswordFormSchema>;

const FIELDS = [
  { name: 'oldPassword', label: 'fields.oldPassword', testId: 'old-password', autoComplete: 'current-password', hint: false },
  { name: 'newPassword', label: 'fields.newPassword', testId: 'new-password', autoComplete: 'new-password', hint: true },
  { name: 'confirmPassword', label: 'fields.confirmPassword', testId: 'confirm-password', autoComplete: 'new-password', hint: false },
] as const;

export interface ChangePasswordFormProps {
  /** After a successful change: sign out and back to login (the app passes its logout). */
  onChanged(): void | Promise<void>;
}

/** /myInfo/editAccount: old password, new password (6–20), confirmation (docs/product-rules.md#limits). */
export function ChangePasswordForm({ onChanged }: ChangePasswordFormProps) {
  const { t } = useTranslation('myInfo');
  const mutation = useEditAccountMutation();
  const form = useForm<PasswordInput, unknown, PasswordOutput>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
  });

  const submit = async ({ oldPassword, newPassword }: PasswordOutput) => {
    try {
      await mutation.mutateAsync({ oldPassword, newPassword });
    } catch {
      return; // the query client has shown the server's message
    }
    toast.success(t('editAccount.success'));
    await onChanged();
  };

  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle>{t('editAccount.title')}</CardTitle>
        <CardDescription>{t('editAccount.description')}</CardDescription>
      </CardHeader>
      <Form {...form}>
        <form onSubmit={form.handleSubmit(submit)} noValidate data-testid="change-password-form" className="grid gap-6">
          <CardContent className="grid gap-5">
            {FIELDS.map((spec) => (
              <FormField
                key={spec.name}
                control={form.control}
                name={spec.name}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel required>{t(spec.label)}</FormLabel>
                    <FormControl>
                      <Input {...field} type="password" data-testid={spec.testId} autoComplete={spec.autoComplete} />
                    </FormControl>
                    {spec.hint && <FormDescription>{t('editAccount.rule', { min: PASSWORD_MIN, max: PASSWORD_MAX })}</FormDescription>}
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
          </CardContent>
          <CardFooter className="justify-end border-t pt-6">
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="change-password-submit">
              {t('editAccount.submit')}
            </Button>
          </CardFooter>
        </form>
      </Form>
    </Card>
  );
}
