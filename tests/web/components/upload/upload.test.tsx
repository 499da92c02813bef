import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PURPOSE_LIMIT } from '@/domain/uploads/rules';
import type { StoredFile } from '@/domain/uploads/stored-file';
import type { UploadTask, UploadTransport } from '@/components/upload/file-store';
import { Upload, type UploadProps } from '@/components/upload/upload';
import { i18next } from '@/lib/i18n';

const t = (key: string, opts: Record<string, unknown> = {}) => i18next.t(key, opts);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A file whose first bytes are a PNG signature, padded to `size`. */
function pngFile(name: string, size = 2000, type = 'image/png'): File {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  return new File([bytes], name, { type });
}

interface Started {
  file: File;
  progress(percent: number): void;
  resolve(file: StoredFile): void;
  reject(error: Error): void;
  task: UploadTask;
}

/** A transport the test drives by hand: progress, success, failure, pause and resume. */
function handTransport(resumable = false) {
  const started: Started[] = [];
  const transport: UploadTransport = {
    start(file, _purpose, onProgress) {
      let resolve!: Started['resolve'];
      let reject!: Started['reject'];
      const done = new Promise<StoredFile>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const task: UploadTask = { done, resumable, pause: vi.fn(), resume: vi.fn(), cancel: vi.fn() };
      started.push({ file, progress: onProgress, resolve, reject, task });
      return task;
    },
    thumbnail: (id) => Promise.resolve(`https://thumbs.example/${id}.webp`),
    meta: (id) => Promise.resolve(stored(id, `${id}.pdf`)),
  };
  return { transport, started };
}

const stored = (id: string, name: string): StoredFile => ({
  id,
  name,
  purpose: 'image',
  mime: 'image/png',
  size: 1,
  width: 1,
  height: 1,
  hasThumbnail: true,
  isPublic: false,
  createdAt: '',
});

function Controlled(props: Omit<UploadProps, 'value' | 'onChange'> & { spy?: (v: string | string[] | null) => void }) {
  const { spy, ...rest } = props;
  const [value, setValue] = useState<string | string[] | null>(null);
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

const input = () => screen.getByLabelText(t('components:upload.choose'));
const pick = (files: File | File[]) => userEvent.setup({ applyAccept: false }).upload(input(), files);

describe('Upload', () => {
  it('judges the type by content: a PNG renamed .mp4 is refused for a lesson video, nothing is sent', async () => {
    const { transport, started } = handTransport();
    render(<Controlled purpose="lessonVideo" transport={transport} />);
    await pick(pngFile('lesson.mp4', 2000, 'video/mp4'));
    expect(await screen.findByRole('alert')).toHaveTextContent(t('errors:fileFormat'));
    expect(screen.getByRole('alert')).toHaveTextContent('lesson.mp4');
    expect(started).toHaveLength(0);
  });

  it('refuses a cover over its ceiling with the size message', async () => {
    const { transport, started } = handTransport();
    render(<Controlled purpose="cover" transport={transport} />);
    await pick(pngFile('cover.png', PURPOSE_LIMIT.cover + 1));
    expect(await screen.findByRole('alert')).toHaveTextContent(t('errors:fileTooLarge'));
    expect(started).toHaveLength(0);
  });

  it('shows progress, then the thumbnail; the value is the file id; removing clears it', async () => {
    const { transport, started } = handTransport();
    const spy = vi.fn();
    render(<Controlled purpose="face" transport={transport} spy={spy} />);
    await pick(pngFile('stamp.png'));
    await waitFor(() => expect(started).toHaveLength(1));
    act(() => started[0].progress(40));
    expect(screen.getByRole('progressbar', { name: t('components:upload.uploading', { name: 'stamp.png' }) })).toHaveAttribute('aria-valuenow', '40');
    // A small file goes in one request: no pause button.
    expect(screen.queryByRole('button', { name: t('components:upload.pause', { name: 'stamp.png' }) })).toBeNull();

    await act(async () => started[0].resolve(stored('f-1', 'stamp.png')));
    await waitFor(() => expect(spy).toHaveBeenCalledWith('f-1'));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(await screen.findByRole('img', { name: t('components:upload.imageAlt', { index: 1 }) })).toHaveAttribute('src', 'https://thumbs.example/f-1.webp');

    await userEvent.click(screen.getByRole('button', { name: t('components:upload.remove', { name: t('components:upload.imageAlt', { index: 1 }) }) }));
    expect(spy).toHaveBeenLastCalledWith(null);
  });

  it('pauses and resumes a resumable upload', async () => {
    const { transport, started } = handTransport(true);
    render(<Controlled purpose="attachment" transport={transport} />);
    await pick(pngFile('big.png'));
    await waitFor(() => expect(started).toHaveLength(1));
    await userEvent.click(await screen.findByRole('button', { name: t('components:upload.pause', { name: 'big.png' }) }));
    expect(started[0].task.pause).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: t('components:upload.resume', { name: 'big.png' }) }));
    expect(started[0].task.resume).toHaveBeenCalledTimes(1);
  });

  it("shows the server's translated refusal and leaves the value alone", async () => {
    const { transport, started } = handTransport();
    const spy = vi.fn();
    render(<Controlled purpose="image" transport={transport} spy={spy} />);
    await pick(pngFile('broken.png'));
    await waitFor(() => expect(started).toHaveLength(1));
    await act(async () => started[0].reject(new Error(t('errors:imageDamaged'))));
    expect(await screen.findByRole('alert')).toHaveTextContent(`broken.png`);
    expect(screen.getByRole('alert')).toHaveTextContent(t('errors:imageDamaged'));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(spy).not.toHaveBeenCalled();
  });

  it('holds an array of ids when it takes several files, and keeps to maxCount', async () => {
    const { transport, started } = handTransport();
    const spy = vi.fn();
    render(<Controlled purpose="image" maxCount={2} transport={transport} spy={spy} />);
    await pick([1, 2, 3].map((i) => pngFile(`${i}.png`)));
    await waitFor(() => expect(started).toHaveLength(2));
    expect(screen.getByRole('alert')).toHaveTextContent(t('components:upload.tooMany', { max: 2 }));
    await act(async () => started[0].resolve(stored('a', '1.png')));
    await act(async () => started[1].resolve(stored('b', '2.png')));
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith(['a', 'b']));
  });
});
