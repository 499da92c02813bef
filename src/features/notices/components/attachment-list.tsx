import { Paperclip } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { NoticeAttachment } from '@/domain/notices/notices';
import { Button } from '@/components/ui/button';

/** Attachments as download buttons. */
export function AttachmentList({ attachments, onDownload }: { attachments: readonly NoticeAttachment[]; onDownload(a: NoticeAttachment): unknown }) {
  const { t } = useTranslation('notices');
  if (attachments.length === 0) return null;
  return (
    <div className="grid gap-2" data-testid="notice-attachments">
      <h3 className="text-sm font-medium">{t('field.attachments')}</h3>
      <ul className="flex flex-wrap gap-2">
        {attachments.map((a) => (
          <li key={a.id}>
            <Button type="button" variant="outline" size="sm" onClick={() => void onDownload(a)}>
              <Paperclip aria-hidden />
              <span className="max-w-60 truncate">{a.name}</span>
              <span className="text-muted-foreground">{t('size', { kb: Math.max(1, Math.round(a.size / 1024)) })}</span>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

