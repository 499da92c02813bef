import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QrScanButton } from '@/components/qr-scan/qr-scan-button';

/** Scans with the device's camera: open the story on a phone, or allow the laptop's camera. The last code read shows below. */
function Demo({ withLabel = false }: { withLabel?: boolean }) {
  const { t } = useTranslation('testSheets');
  const label = withLabel ? t('scan.title') : undefined;
  const [code, setCode] = useState('');
  return (
    <div className="grid gap-3">
      <QrScanButton label={label} onCode={setCode} />
      <output className="font-mono text-sm">{code}</output>
    </div>
  );
}

const meta = {
  title: 'Components/QrScanButton',
  component: QrScanButton,
  parameters: { layout: 'centered' },
  args: { onCode: () => {} },
} satisfies Meta<typeof QrScanButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = { render: () => <Demo /> };
export const WithLabel: Story = { render: () => <Demo withLabel /> };
