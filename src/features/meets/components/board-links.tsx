import type { SchoolFamily } from '@/domain/menus/access';
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { MonitorPlay, Plus } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ScreenLinkCreated } from '@/domain/wall/wall';
import { boardLinkCreateSchema, type BoardLinkCreate } from '@/domain/meets/board';
import { FormSchema, TextField } from '@/components/form/fields';
import { Form } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { CreatedLink, LinkList } from '@/components/screen-links/screen-links';
import { useBoardLinks } from '../board-api';
import { formatDateTime } from '@/lib/date-time';

/**
 * The live board's wall links (docs/product-rules.md#meets): create one (its URL shown once), copy or preview it, revoke it.
 * The list, the shown-once URL and the revoke confirm are the data centre's screen-link kit.
 */
export function BoardLinksButton({ family, meetId, meetName }: { family: SchoolFamily; meetId: string; meetName: string }) {
  const { t } = useTranslation('meets');
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="board-links-open">
          <MonitorPlay aria-hidden />
          {t('board.links')}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl" data-testid="board-links-dialog">
        <DialogHeader>
          <DialogTitle>{t('board.linksTitle')}</DialogTitle>
          <DialogDescription>{t('board.linksDescription')}</DialogDescription>
        </DialogHeader>
        {open ? <BoardLinks family={family} meetId={meetId} meetName={meetName} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function BoardLinks({ family, meetId, meetName }: { family: SchoolFamily; meetId: string; meetName: string }) {
  const { t, i18n } = useTranslation(['meets', 'dashboard', 'wall']);
  const calls = useBoardLinks(family, meetId);
  const [created, setCreated] = useState<ScreenLinkCreated | null>(null);
  const form = useForm<BoardLinkCreate>({ resolver: zodResolver(boardLinkCreateSchema), defaultValues: { name: '' } });
  const submit = async (body: BoardLinkCreate) => {
    try {
      setCreated(await calls.create.mutateAsync(body));
      form.reset();
    } catch {
      /* the query client has shown the server's message */
    }
  };
  return (
    <div className="grid gap-6">
      {created ? (
        <CreatedLink link={created} onDone={() => setCreated(null)} />
      ) : (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(submit)} noValidate className="grid gap-4 rounded-lg border p-4" data-testid="board-link-form">
            <h3 className="font-medium">{t('dashboard:screenLinks.create')}</h3>
            <FormSchema value={boardLinkCreateSchema}>
              <TextField name="name" label={t('dashboard:screenLinks.name')} required placeholder={t('board.linkNamePlaceholder')} inputTestId="board-link-name" />
            </FormSchema>
            <div className="flex justify-end">
              <Button type="submit" loading={form.formState.isSubmitting} data-testid="board-link-submit">
                <Plus aria-hidden />
                {t('dashboard:screenLinks.submit')}
              </Button>
            </div>
          </form>
        </Form>
      )}
      <LinkList
        query={calls.list}
        revoke={calls.revoke}
        detail={(link) =>
          `${meetName} · ${t('wall:scene.meetBoard')}${link.expiresAt ? ` · ${t('board.expires', { time: formatDateTime(link.expiresAt, i18n.language) })}` : ''}`
        }
      />
    </div>
  );
}
