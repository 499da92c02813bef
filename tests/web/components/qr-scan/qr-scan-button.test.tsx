import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { QrScanButton } from '@/components/qr-scan/qr-scan-button';
import { resetApp } from '../../app/fake-api';

const track = () => ({ stop: vi.fn() });
function fakeStream() {
  const tracks = [track()];
  return { stream: { getTracks: () => tracks } as unknown as MediaStream, tracks };
}
const setMediaDevices = (value: unknown) => Object.defineProperty(navigator, 'mediaDevices', { value, configurable: true });

describe('QrScanButton', () => {
  beforeEach(() => {
    resetApp();
    // jsdom plays no video.
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(() => {
    setMediaDevices(undefined);
    delete (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector;
    vi.restoreAllMocks();
  });

  it('asks for the rear camera, hands over the first code read, closes and stops the camera', async () => {
    const { stream, tracks } = fakeStream();
    const getUserMedia = vi.fn().mockResolvedValue(stream);
    setMediaDevices({ getUserMedia });
    const detect = vi.fn().mockResolvedValueOnce([]).mockResolvedValue([{ rawValue: 'TIYU1|p|G1' }]);
    (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector = Object.assign(
      class {
        detect = detect;
      },
      { getSupportedFormats: async () => ['qr_code'] },
    );
    const onCode = vi.fn();
    render(<AppProvider><QrScanButton onCode={onCode} /></AppProvider>);
    await userEvent.setup().click(screen.getByTestId('qr-scan'));
    expect(await screen.findByTestId('qr-scan-dialog')).toHaveTextContent('扫描测试卡');
    await waitFor(() => expect(onCode).toHaveBeenCalledWith('TIYU1|p|G1'));
    expect(getUserMedia.mock.calls[0][0]).toMatchObject({ video: { facingMode: { ideal: 'environment' } } });
    expect(tracks[0].stop).toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByTestId('qr-scan-dialog')).toBeNull());
  });

  it('says so when the camera is refused, and stops it when closed', async () => {
    setMediaDevices({ getUserMedia: vi.fn().mockRejectedValue(new DOMException('no', 'NotAllowedError')) });
    render(<AppProvider><QrScanButton onCode={vi.fn()} label="扫描学生卡" /></AppProvider>);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '扫描学生卡' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('未允许使用摄像头');

    const { stream, tracks } = fakeStream();
    setMediaDevices({ getUserMedia: vi.fn().mockResolvedValue(stream) });
    await user.click(screen.getByTestId('qr-scan-close'));
    await user.click(screen.getByRole('button', { name: '扫描学生卡' }));
    await screen.findByTestId('qr-scan-video');
    await waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());
    await user.click(screen.getByTestId('qr-scan-close'));
    await waitFor(() => expect(tracks[0].stop).toHaveBeenCalled());
  });

  it('tells a browser without camera access to type the 学籍号', async () => {
    setMediaDevices(undefined);
    render(<AppProvider><QrScanButton onCode={vi.fn()} /></AppProvider>);
    await userEvent.setup().click(screen.getByTestId('qr-scan'));
    expect(await screen.findByRole('alert')).toHaveTextContent('此浏览器无法使用摄像头（需要 HTTPS），请输入学籍号');
  });
});
