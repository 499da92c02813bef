import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ERR } from '@/domain/errors';
import { toast } from '@/lib/toast';
import { captchaUrl } from '../captcha';

export interface CaptchaImageProps {
  randomStr: string;
  onRefresh(): void;
}

/** The image captcha (docs/product-rules.md#sign-in): GET /api/code?randomStr=…; a click loads a new one. */
export function CaptchaImage({ randomStr, onRefresh }: CaptchaImageProps) {
  const { t } = useTranslation('auth');
  return (
    <button
      type="button"
      onClick={onRefresh}
      title={t('login.captchaRefresh')}
      aria-label={t('login.captchaRefresh')}
      data-testid="login-captcha-refresh"
      className="group relative h-10 w-30 shrink-0 overflow-hidden rounded-md border border-input bg-white outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <img
        key={randomStr}
        src={captchaUrl(randomStr)}
        alt={t('login.captchaAlt')}
        data-testid="login-captcha"
        draggable={false}
        onError={() => toast.warning(t(ERR.captchaFetch), { id: 'captcha-fetch' })}
        className="size-full object-contain"
      />
      <span aria-hidden className="absolute inset-0 flex items-center justify-center bg-black/35 opacity-0 transition-opacity group-hover:opacity-100">
        <RefreshCw className="size-4 text-white" />
      </span>
    </button>
  );
}
