import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_LIMIT } from '@/domain/constants';
import { Upload, type UploadProps } from '@/components/upload/upload';
import { getToasts, toast } from '@/components/ui/toast';
import { i18next } from '@/lib/i18n';

const t = (key: string, opts: Record<string, unknown> = {}) => i18next.t(key, opts);

function sized(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function Controlled(props: Omit<UploadProps, 'value' | 'onChange'> & { initial?: string[]; spy?: (urls: string[]) => void }) {
  const { initial = [], spy, ...rest } = props;
  const [value, setValue] = useState<string[]>(initial);
  return (
    <Upload
      {...rest}
      value={value}
      onChange={(v) => {
        spy?.(v);
        setValue(v);
      }}
    />
  );
}

const input = () => screen.getByLabelText(t('components:upload.choose')) as HTMLInputElement;

describe('Upload (spec §5)', () => {
  afterEach(() => toast.dismiss());

  it('rejects an oversized image with the translated message and does not upload', async () => {
    const upload = vi.fn();
    render(<Controlled kind="image" upload={upload} />);
    await userEvent.upload(input(), sized('big.png', 'image/png', UPLOAD_LIMIT.image + 1));
    expect(screen.getByRole('alert')).toHaveTextContent(t('errors:fileTooLarge'));
    expect(screen.getByRole('alert')).toHaveTextContent('big.png');
    expect(upload).not.toHaveBeenCalled();
  });

  it('rejects a wrong type with the file-format message', async () => {
    const upload = vi.fn();
    render(<Controlled kind="audio" upload={upload} />);
    await userEvent.setup({ applyAccept: false }).upload(input(), sized('a.wav', 'audio/wav', 10));
    expect(screen.getByRole('alert')).toHaveTextContent(t('errors:fileFormat'));
    expect(upload).not.toHaveBeenCalled();
  });

  it('uploads an accepted image, shows its thumbnail and removes it', async () => {
    const upload = vi.fn(() => Promise.resolve({ url: 'https://files.example/a/photo.png' }));
    const spy = vi.fn();
    render(<Controlled kind="image" upload={upload} spy={spy} />);
    // Small enough (≤ 100 KB) that it is sent as is.
    const file = sized('photo.png', 'image/png', 50_000);
    await userEvent.upload(input(), file);
    await waitFor(() => expect(spy).toHaveBeenCalledWith(['https://files.example/a/photo.png']));
    expect(upload).toHaveBeenCalledWith(file);
    expect(screen.getByRole('img', { name: t('components:upload.imageAlt', { index: 1 }) })).toHaveAttribute(
      'src',
      'https://files.example/a/photo.png',
    );
    // maxCount 1 for plain images: the add tile is gone.
    expect(screen.queryByRole('button', { name: t('components:upload.add') })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: t('components:upload.remove', { name: 'photo.png' }) }));
    expect(spy).toHaveBeenLastCalledWith([]);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('keeps to maxCount', async () => {
    let n = 0;
    const upload = vi.fn(() => Promise.resolve({ url: `https://f.example/${++n}.png` }));
    const spy = vi.fn();
    render(<Controlled kind="image" maxCount={2} upload={upload} spy={spy} />);
    await userEvent.upload(input(), [1, 2, 3].map((i) => sized(`${i}.png`, 'image/png', 10)));
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith(['https://f.example/1.png', 'https://f.example/2.png']));
    expect(upload).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('alert')).toHaveTextContent(t('components:upload.tooMany', { max: 2 }));
  });

  it('an upload failure raises a toast and leaves the value alone', async () => {
    const upload = vi.fn(() => Promise.reject(new Error('存储服务不可用')));
    const spy = vi.fn();
    render(<Controlled kind="excel" upload={upload} spy={spy} />);
    await userEvent.upload(input(), sized('list.xlsx', '', 10));
    await waitFor(() => expect(getToasts().some((x) => x.kind === 'error' && x.message === '存储服务不可用')).toBe(true));
    expect(spy).not.toHaveBeenCalled();
  });
});
