import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { Upload, type UploadProps } from '@/components/upload/upload';

// Pretend server: answers an object URL of the (possibly compressed) file after a short delay.
const fakeUpload = (file: File) =>
  new Promise<{ url: string }>((resolve) => setTimeout(() => resolve({ url: `${URL.createObjectURL(file)}#${encodeURIComponent(file.name)}` }), 800));

function Demo(props: Omit<UploadProps, 'value' | 'onChange' | 'upload'>) {
  const [value, setValue] = useState<string[]>([]);
  return <Upload {...props} value={value} onChange={setValue} upload={fakeUpload} />;
}

const meta = {
  title: 'Components/Upload',
  component: Upload,
  parameters: { layout: 'padded' },
  args: { kind: 'image', upload: fakeUpload },
} satisfies Meta<typeof Upload>;
export default meta;
type Story = StoryObj<typeof meta>;

/** PNG/JPG under 5 MB; anything above 100 KB is compressed in the browser first. */
export const Image: Story = { render: () => <Demo kind="image" /> };

/** Banner carousel: up to five images. */
export const BannerImages: Story = { render: () => <Demo kind="image" maxCount={5} /> };

/** E-stamps: PNG under 2 MB, up to ten (spec §5). */
export const Estamps: Story = { render: () => <Demo kind="estamp" /> };

export const Video: Story = { render: () => <Demo kind="video" /> };

export const Audio: Story = { render: () => <Demo kind="audio" /> };

export const WithValue: Story = {
  render: function Render() {
    const [value, setValue] = useState<string[]>([
      'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><rect width="96" height="96" fill="%230a6cc4"/></svg>',
    ]);
    return <Upload kind="image" maxCount={3} value={value} onChange={setValue} upload={fakeUpload} />;
  },
};

export const Disabled: Story = { render: () => <Demo kind="image" disabled /> };
