import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { i18next } from '@/lib/i18n';
import { ERR } from '@/domain/errors';
import type { StoredFile } from '@/domain/uploads/stored-file';
import type { UploadTransport } from '@/components/upload/file-store';
import { Upload, type UploadProps } from '@/components/upload/upload';

const previews = new Map<string, string>();
let next = 0;

/**
 * A pretend file store: progress rises every 150 ms; files over 1 MB go "resumably" (pause/resume);
 * a file whose name starts with "fail" is refused with the server's "upload processing abnormal" message.
 */
const fakeTransport: UploadTransport = {
  start(file, purpose, onProgress) {
    let progress = 0;
    let paused = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const done = new Promise<StoredFile>((resolve, reject) => {
      const tick = () => {
        if (paused) return;
        progress = Math.min(100, progress + 10);
        onProgress(progress);
        if (progress < 100) return;
        clearInterval(timer);
        if (file.name.startsWith('fail')) return reject(new Error(i18next.t(ERR.uploadFailed)));
        const id = `file-${++next}`;
        if (file.type.startsWith('image/')) previews.set(id, URL.createObjectURL(file));
        resolve({ id, name: file.name, purpose, mime: file.type, size: file.size, width: null, height: null, hasThumbnail: true, isPublic: false, createdAt: new Date().toISOString() });
      };
      timer = setInterval(tick, 150);
    });
    return {
      done,
      resumable: file.size > 1024 * 1024,
      pause: () => (paused = true),
      resume: () => (paused = false),
      cancel: () => clearInterval(timer),
    };
  },
  thumbnail: (id) =>
    Promise.resolve(
      previews.get(id) ??
        'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><rect width="96" height="96" fill="%230a6cc4"/></svg>',
    ),
  meta: (id) => Promise.resolve({ id, name: `${id}.pdf`, purpose: 'attachment', mime: 'application/pdf', size: 1, width: null, height: null, hasThumbnail: false, isPublic: false, createdAt: '' }),
};

function Demo(props: Omit<UploadProps, 'value' | 'onChange' | 'transport'> & { initial?: string | string[] | null }) {
  const { initial = null, ...rest } = props;
  const [value, setValue] = useState<string | string[] | null>(initial);
  return <Upload {...rest} value={value} onChange={setValue} transport={fakeTransport} />;
}

const meta = {
  title: 'Components/Upload',
  component: Upload,
  parameters: { layout: 'padded' },
  args: { purpose: 'image', transport: fakeTransport },
} satisfies Meta<typeof Upload>;
export default meta;
type Story = StoryObj<typeof meta>;

/** PNG/JPG/GIF/WEBP judged by content; images over 100 KB are compressed. */
export const Image: Story = { render: () => <Demo purpose="image" /> };

/** Banner carousel: up to five images, shown on the login screen (public). */
export const BannerImages: Story = { render: () => <Demo purpose="banner" /> };

/** E-stamps: PNG 1:1 under 2 MB, up to ten. */
export const Stamps: Story = { render: () => <Demo purpose="stamp" /> };

/** Lesson video: MP4 under 500 MB, sent resumably with pause and resume. */
export const LessonVideo: Story = { render: () => <Demo purpose="lessonVideo" /> };

/** Event files under 50 MB; choose a file named "fail…" to see the error state. */
export const Attachments: Story = { render: () => <Demo purpose="attachment" maxCount={5} initial={['file-a']} /> };

export const WithValue: Story = { render: () => <Demo purpose="image" maxCount={3} initial={['file-x']} /> };

export const Disabled: Story = { render: () => <Demo purpose="image" initial="file-y" disabled /> };
