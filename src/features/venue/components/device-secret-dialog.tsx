import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceCredential } from '@/domain/activities/ingest';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';

/** The device API secret, shown this one time after it was issued (docs/product-rules.md#ingest). */
export function DeviceSecretDialog({ credential, onClose }: { credential: DeviceCredential | null; onClose(): void }) {
  const { t } = useTranslation('venue');
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!credential) return;
    await navigator.clipboard.writeText(credential.secret);
    setCopied(true);
  };
  return (
    <Dialog
      open={credential !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
    >
      <DialogContent data-testid="device-secret-dialog" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{t('secret.shownTitle')}</DialogTitle>
          <DialogDescription>{t('secret.shownText')}</DialogDescription>
        </DialogHeader>
        {credential && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">{t('device.serialNo')}</dt>
            <dd className="font-mono">{credential.serialNo}</dd>
            <dt className="text-muted-foreground">{t('secret.secret')}</dt>
            <dd className="font-mono break-all select-all" data-testid="device-secret">
              {credential.secret}
            </dd>
          </dl>
        )}
        <p className="text-sm text-muted-foreground">{t('secret.howTo')}</p>
        <DialogFooter>
          <Button variant="outline" onClick={() => void copy()}>
            {copied ? t('secret.copied') : t('secret.copy')}
          </Button>
          <Button
            onClick={() => {
              setCopied(false);
              onClose();
            }}
          >
            {t('secret.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
