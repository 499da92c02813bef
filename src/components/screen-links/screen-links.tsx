import { useState } from 'react';
import { Ban, Check, Copy, ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { ScreenLinkCreated, ScreenLinkRow } from '@/domain/wall/wall';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { formatDateTime } from '@/lib/date-time';

// Screen links open the wall display without a session (docs/decisions/017-wall-and-board-links.md): the data centre's
// playlists and a meet's live board list, create and revoke them with these.

/** The full URL of a wall path on this site. */
export function absoluteUrl(path: string): string {
  return new URL(path, window.location.origin).toString();
}

/** The URL of a link just created (shown this once: only a hash of the token is kept), to copy or preview. */
export function CreatedLink({ link, onDone }: { link: ScreenLinkCreated; onDone(): void }) {
  const { t } = useTranslation('dashboard');
  const url = absoluteUrl(link.path);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast.success(t('screenLinks.copied'));
    } catch {
      toast.warning(t('screenLinks.copyFailed'));
    }
  };
  return (
    <div className="grid gap-3 rounded-lg border border-success/50 bg-success/5 p-4" data-testid="screen-link-created">
      <p className="font-medium">{t('screenLinks.createdTitle', { name: link.name })}</p>
      <p className="text-sm text-muted-foreground">{t('screenLinks.createdHint')}</p>
      <div className="flex flex-wrap items-center gap-2">
        <Input readOnly value={url} className="min-w-0 flex-1 font-mono text-xs" aria-label={t('screenLinks.url')} data-testid="screen-link-url" onFocus={(e) => e.currentTarget.select()} />
        <Button variant="outline" onClick={() => void copy()} data-testid="screen-link-copy">
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {t('screenLinks.copy')}
        </Button>
        <Button variant="outline" asChild>
          <a href={url} target="_blank" rel="noreferrer">
            <ExternalLink aria-hidden />
            {t('screenLinks.preview')}
          </a>
        </Button>
      </div>
      <div>
        <Button variant="secondary" size="sm" onClick={onDone}>
          {t('screenLinks.another')}
        </Button>
      </div>
    </div>
  );
}

const expired = (link: ScreenLinkRow) => link.expiresAt !== null && Date.parse(link.expiresAt) <= Date.now();

export interface LinkListProps {
  query: UseQueryResult<ScreenLinkRow[]>;
  revoke: UseMutationResult<ScreenLinkRow, unknown, string>;
  /** The line under the name saying what the wall shows. */
  detail(link: ScreenLinkRow): string;
}

/** Screen links with their state, creator and last visit, each revocable after a confirm (data-centre and meet board links alike). */
export function LinkList({ query, revoke, detail }: LinkListProps) {
  const { t, i18n } = useTranslation(['dashboard', 'wall']);
  const [confirm, setConfirm] = useState<ScreenLinkRow | null>(null);
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : t('screenLinks.never'));
  const rows = query.data ?? [];

  return (
    <div className="grid gap-2">
      <h3 className="font-medium">{t('screenLinks.list')}</h3>
      {rows.length === 0 ? (
        <p className="py-4 text-sm text-muted-foreground">{query.isPending ? t('state.loading') : t('screenLinks.none')}</p>
      ) : (
        <ul className="divide-y rounded-lg border" data-testid="screen-link-list">
          {rows.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center justify-between gap-3 px-3 py-2" data-testid="screen-link-row" data-revoked={Boolean(link.revokedAt)}>
              <div className="grid min-w-0 gap-0.5">
                <span className="flex items-center gap-2 font-medium">
                  {link.name}
                  {link.revokedAt ? (
                    <Badge variant="secondary">{t('screenLinks.revoked')}</Badge>
                  ) : expired(link) ? (
                    <Badge variant="secondary">{t('screenLinks.expired')}</Badge>
                  ) : (
                    <Badge variant="success">{t('screenLinks.active')}</Badge>
                  )}
                </span>
                <span className="text-xs text-muted-foreground">{detail(link)}</span>
                <span className="text-xs text-muted-foreground">
                  {t('screenLinks.meta', { created: when(link.createdAt), by: link.createdByName ?? '—', seen: when(link.lastSeenAt) })}
                </span>
              </div>
              {!link.revokedAt && !expired(link) ? (
                <Button variant="outline" size="sm" className="text-destructive" onClick={() => setConfirm(link)} data-testid="screen-link-revoke">
                  <Ban aria-hidden />
                  {t('screenLinks.revoke')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t('screenLinks.revokeTitle')}
        description={t('screenLinks.revokeDescription', { name: confirm?.name ?? '' })}
        confirmText={t('screenLinks.revoke')}
        destructive
        onConfirm={async () => {
          if (!confirm) return;
          try {
            await revoke.mutateAsync(confirm.id);
            toast.success(t('screenLinks.revokedToast'));
          } catch {
            /* shown by the query client */
          }
          setConfirm(null);
        }}
      />
    </div>
  );
}
