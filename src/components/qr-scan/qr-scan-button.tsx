import { useEffect, useRef, useState } from 'react';
import { CameraOff, ScanLine } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cameraProblem, frameReader, openRearCamera, stopCamera, type CameraProblem } from './camera';

export interface QrScanButtonProps {
  /** The text of the first code read; the dialog has closed and the camera stopped by then. */
  onCode(text: string): void;
  /** The button's text ("扫码" by default). */
  label?: string;
}

/** Time between two reads of the video: quick enough to feel instant, light enough for a phone's battery. */
const READ_EVERY_MS = 120;

/**
 * A button that scans a test card's QR code with the device's rear camera (docs/product-rules.md#physique-year, "Test
 * sheets"): a dialog over the whole phone screen with the video and, within thumb reach, the close button. It closes on
 * the first code read and hands the text to `onCode`; when there is no camera, or it is refused or unsupported, it says
 * so and the teacher types the 学籍号 instead. The camera stops whenever the dialog closes.
 */
export function QrScanButton({ onCode, label }: QrScanButtonProps) {
  const { t } = useTranslation('testSheets');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="outline" className="h-11 min-w-11 px-4" onClick={() => setOpen(true)} data-testid="qr-scan">
        <ScanLine aria-hidden /> {label ?? t('scan.button')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          showCloseButton={false}
          className="flex h-dvh max-h-dvh w-full max-w-full flex-col gap-3 rounded-none border-0 p-4 sm:h-auto sm:max-h-[calc(100dvh-2rem)] sm:max-w-md sm:rounded-lg sm:border sm:p-6"
          data-testid="qr-scan-dialog"
        >
          <DialogHeader>
            <DialogTitle>{t('scan.title')}</DialogTitle>
            <DialogDescription>{t('scan.hint')}</DialogDescription>
          </DialogHeader>
          {open ? (
            <Scanner
              onCode={(text) => {
                setOpen(false);
                onCode(text);
              }}
            />
          ) : null}
          <Button type="button" variant="secondary" className="mt-auto h-12 w-full text-base" onClick={() => setOpen(false)} data-testid="qr-scan-close">
            {t('scan.close')}
          </Button>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The camera while the dialog is open: started on mount, stopped on unmount (the dialog closing). */
function Scanner({ onCode }: { onCode(text: string): void }) {
  const { t } = useTranslation('testSheets');
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const [live, setLive] = useState(false);
  const done = useRef(onCode);
  useEffect(() => {
    done.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      stopCamera(stream);
    };
    void (async () => {
      try {
        stream = await openRearCamera();
        if (stopped) return stopCamera(stream);
        const el = video.current;
        if (!el) return stopCamera(stream);
        el.srcObject = stream;
        await el.play?.();
        setLive(true);
        const read = await frameReader();
        const tick = async () => {
          if (stopped) return;
          let text: string | null = null;
          try {
            text = await read(el);
          } catch {
            // A frame that cannot be read (the video not ready yet): the next one.
          }
          if (stopped) return;
          if (text) {
            stop();
            done.current(text);
            return;
          }
          timer = setTimeout(() => void tick(), READ_EVERY_MS);
        };
        void tick();
      } catch (error) {
        stopCamera(stream);
        if (!stopped) setProblem(cameraProblem(error));
      }
    })();
    return stop;
  }, []);

  if (problem) {
    return (
      <div role="alert" className="flex flex-1 flex-col items-center justify-center gap-3 rounded-md bg-muted p-6 text-center" data-testid="qr-scan-problem">
        <CameraOff aria-hidden className="size-10 text-muted-foreground" />
        <p className="text-sm">{t(`scan.${problem}`)}</p>
      </div>
    );
  }
  return (
    <div className="relative flex min-h-0 flex-1 items-center justify-center overflow-hidden rounded-md bg-black sm:aspect-square sm:flex-none">
      <video ref={video} className="size-full object-cover" muted playsInline aria-label={t('scan.title')} data-testid="qr-scan-video" />
      {/* The frame to hold the code in. */}
      <div aria-hidden className="pointer-events-none absolute aspect-square w-3/5 max-w-64 rounded-lg border-4 border-white/80 shadow-[0_0_0_100vmax_rgba(0,0,0,0.35)]" />
      {live ? null : (
        <p className="absolute inset-x-0 bottom-4 text-center text-sm text-white" aria-live="polite">
          {t('scan.starting')}
        </p>
      )}
    </div>
  );
}
