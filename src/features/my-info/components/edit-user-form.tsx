import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { profileFormSchema } from '@/domain/auth/schemas';
import { OK_MSG } from '@/domain/errors';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { RadioChoice, RadioGroup } from '@/components/ui/radio-group';
import { toast } from '@/lib/toast';
import { uinfoAtom } from '@/lib/store';
import { useEditUserMutation } from '../api/edit-user';

type ProfileInput = z.input<typeof profileFormSchema>;
type ProfileOutput = z.output<typeof profileFormSchema>;
const GENDERS = ['male', 'female', 'unknown'] as const;

/** /myInfo/editUser: name, mobile and gender (profileFormSchema). */
export function EditUserForm() {
  const { t } = useTranslation(['myInfo', 'common']);
  const uinfo = useAtomValue(uinfoAtom);
  const mutation = useEditUserMutation();
  const form = useForm<ProfileInput, unknown, ProfileOutput>({
    resolver: zodResolver(profileFormSchema),
    values: { userName: uinfo?.userName ?? '', mobile: uinfo?.mobile ?? '', gender: uinfo?.gender ?? 'unknown' },
  });

  const submit = async (values: ProfileOutput) => {
    await mutation.mutateAsync(values).then(
      () => toast.success(t(OK_MSG.saved)),
      () => undefined, // the query client has shown the server's message
    );
  };

  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle>{t('editUser.title')}</CardTitle>
        <CardDescription>{t('editUser.description')}</CardDescription>
      </CardHeader>
      <Form {...form}>
        <form onSubmit={form.handleSubmit(submit)} noValidate data-testid="edit-user-form" className="grid gap-6">
          <CardContent className="grid gap-5">
            <FormField
              control={form.control}
              name="userName"
              render={({ field }) => (
                <FormItem>
                  <FormLabel required>{t('fields.name')}</FormLabel>
                  <FormControl>
                    <Input {...field} data-testid="edit-user-name" autoComplete="name" placeholder={t('editUser.namePlaceholder')} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="mobile"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('fields.mobile')}</FormLabel>
                  <FormControl>
                    <Input {...field} data-testid="edit-user-mobile" inputMode="tel" autoComplete="tel" placeholder={t('editUser.mobilePlaceholder')} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="gender"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('fields.gender')}</FormLabel>
                  <FormControl>
                    <RadioGroup value={field.value} onValueChange={field.onChange} className="flex flex-wrap gap-5" data-testid="edit-user-gender">
                      {GENDERS.map((g) => (
                        <RadioChoice key={g} id={`gender-${g}`} value={g}>
                          {t(`gender.${g}`)}
                        </RadioChoice>
                      ))}
                    </RadioGroup>
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
          </CardContent>
          <CardFooter className="justify-end gap-2 border-t pt-6">
            <Button type="button" variant="outline" onClick={() => form.reset()} disabled={form.formState.isSubmitting}>
              {t('common:action.reset')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="edit-user-submit">
              {t('common:action.save')}
            </Button>
          </CardFooter>
        </form>
      </Form>
    </Card>
  );
}
