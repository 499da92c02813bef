import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useAtomValue } from 'jotai';
import { Plus } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SEMESTER } from '@/domain/constants';
import { CreatedLink, LinkList } from '@/components/screen-links/screen-links';
import {
  screenLinkCreateSchema,
  WALL_INTERVAL_DEFAULT_S,
  WALL_REFRESH_DEFAULT_S,
  WALL_SCENES,
  wallScenesFor,
  type ScreenLinkCreated,
} from '@/domain/wall/wall';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { useOptionsQuery } from '../api/get-options';
import { useCreateScreenLink, useRevokeScreenLink, useScreenLinksQuery } from '../api/screen-links';
import { dataCenterFamilyAtom } from '../atoms';
import type { Family } from '@/domain/menus/access';

type LinkInput = z.input<typeof screenLinkCreateSchema>;
type LinkOutput = z.output<typeof screenLinkCreateSchema>;

const ANY = '__any';

const NUMBER_FIELDS = [
  { name: 'playlist.intervalSeconds', label: 'screenLinks.interval', hint: 'screenLinks.intervalHint', testId: 'screen-link-interval' },
  { name: 'playlist.refreshSeconds', label: 'screenLinks.refresh', hint: 'screenLinks.refreshHint', testId: 'screen-link-refresh' },
] as const;

/** The dialog body of ScreenLinksButton (screen-links.tsx): create a link, copy it once, list and revoke. */
export function ScreenLinksManager() {
  const family = useAtomValue(dataCenterFamilyAtom);
  const [created, setCreated] = useState<ScreenLinkCreated | null>(null);
  return (
    <div className="grid gap-6">
      {created ? <CreatedLink link={created} onDone={() => setCreated(null)} /> : <CreateLinkForm onCreated={setCreated} />}
      <DataCenterLinkList family={family} />
    </div>
  );
}

function CreateLinkForm({ onCreated }: { onCreated(link: ScreenLinkCreated): void }) {
  const { t } = useTranslation(['dashboard', 'wall']);
  const family = useAtomValue(dataCenterFamilyAtom);
  const create = useCreateScreenLink(family);
  const options = useOptionsQuery(family).data;
  // A bureau's links show the bureau itself: its schools compared is one more scene.
  const scenes = wallScenesFor(family === 'admin');
  const form = useForm<LinkInput, unknown, LinkOutput>({
    resolver: zodResolver(screenLinkCreateSchema),
    defaultValues: {
      name: '',
      playlist: { scenes: [...scenes], intervalSeconds: WALL_INTERVAL_DEFAULT_S, refreshSeconds: WALL_REFRESH_DEFAULT_S },
    },
  });

  const submit = async (body: LinkOutput) => {
    try {
      onCreated(await create.mutateAsync(body));
      form.reset();
    } catch {
      /* the query client has shown the server's message */
    }
  };

  const numberField = (name: (typeof NUMBER_FIELDS)[number]['name'], label: string, hint: string, testId: string) => (
    <FormField
      key={name}
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel required>{label}</FormLabel>
          <FormControl>
            <Input
              type="number"
              inputMode="numeric"
              data-testid={testId}
              name={field.name}
              ref={field.ref}
              onBlur={field.onBlur}
              value={typeof field.value === 'number' && Number.isFinite(field.value) ? field.value : ''}
              onChange={(e) => field.onChange(e.target.valueAsNumber)}
            />
          </FormControl>
          <FormDescription>{hint}</FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(submit)} noValidate className="grid gap-4 rounded-lg border p-4" data-testid="screen-link-form">
        <h3 className="font-medium">{t('screenLinks.create')}</h3>
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>{t('screenLinks.name')}</FormLabel>
              <FormControl>
                <Input {...field} placeholder={t('screenLinks.namePlaceholder')} data-testid="screen-link-name" />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="playlist.scenes"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>{t('screenLinks.scenes')}</FormLabel>
              <div className="grid gap-2 sm:grid-cols-2">
                {scenes.map((scene) => {
                  const checked = field.value?.includes(scene) ?? false;
                  const id = `scene-${scene}`;
                  return (
                    <div key={scene} className="flex items-center gap-2">
                      <Checkbox
                        id={id}
                        checked={checked}
                        data-testid={id}
                        onCheckedChange={(on) => {
                          const chosen = new Set(field.value ?? []);
                          if (on === true) chosen.add(scene);
                          else chosen.delete(scene);
                          // Keep the playlist in the canonical scene order.
                          field.onChange(WALL_SCENES.filter((s) => chosen.has(s)));
                        }}
                      />
                      <Label htmlFor={id} className="font-normal">
                        {t(`wall:scene.${scene}`)}
                      </Label>
                    </div>
                  );
                })}
              </div>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="grid gap-4 sm:grid-cols-2">{NUMBER_FIELDS.map((f) => numberField(f.name, t(f.label), t(f.hint), f.testId))}</div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="playlist.schoolYear"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('filter.schoolYear')}</FormLabel>
                <Select
                  aria-label={t('filter.schoolYear')}
                  value={field.value === undefined ? ANY : String(field.value)}
                  onValueChange={(v) => field.onChange(v === ANY ? undefined : Number(v))}
                  options={[{ value: ANY, label: t('screenLinks.latestYear') }, ...(options?.schoolYears ?? []).map((y) => ({ value: String(y.schoolYear), label: y.academicYear }))]}
                />
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="playlist.semesterCode"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('filter.semesterCode')}</FormLabel>
                <Select
                  aria-label={t('filter.semesterCode')}
                  value={field.value === undefined ? ANY : String(field.value)}
                  onValueChange={(v) => field.onChange(v === ANY ? undefined : Number(v))}
                  options={[
                    { value: ANY, label: t('filter.all.semesterCode') },
                    ...[SEMESTER.autumn, SEMESTER.spring].map((s) => ({ value: String(s), label: t(`semester.${s}`) })),
                  ]}
                />
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <div className="flex justify-end">
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="screen-link-submit">
            <Plus aria-hidden />
            {t('screenLinks.submit')}
          </Button>
        </div>
      </form>
    </Form>
  );
}

function DataCenterLinkList({ family }: { family: Family }) {
  const { t } = useTranslation(['dashboard', 'wall']);
  const query = useScreenLinksQuery(family);
  const revoke = useRevokeScreenLink(family);
  return (
    <LinkList
      query={query}
      revoke={revoke}
      detail={(link) => `${link.playlist.scenes.map((s) => t(`wall:scene.${s}`)).join(' · ')} · ${t('screenLinks.every', { interval: link.playlist.intervalSeconds, refresh: link.playlist.refreshSeconds })}`}
    />
  );
}
