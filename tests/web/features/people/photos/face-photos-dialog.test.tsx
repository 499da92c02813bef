import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FacePhotoMatchResult } from '@/domain/people/face-photos';
import { toast } from '@/lib/toast';
import { applyFacePhotos, discardFacePhotos, matchFacePhotos } from '@/features/people/photos/api';
import { runBounded } from '@/features/people/photos/face-photo-batch';
import { FacePhotosDialog } from '@/features/people/photos/face-photos-dialog';
import { i18next } from '@/lib/i18n';

vi.mock('@/features/people/photos/api', () => ({
  matchFacePhotos: vi.fn(),
  applyFacePhotos: vi.fn(() => Promise.resolve({ applied: 1, replaced: 0 })),
  discardFacePhotos: vi.fn(),
  resourceKey: (key: string) => ['resource', key],
}));
vi.mock('@/components/upload/file-store', () => {
  let n = 0;
  return {
    fileStoreTransport: {
      start: vi.fn((file: File) => ({ done: Promise.resolve({ id: `file-${++n}`, name: file.name }), resumable: false, pause() {}, resume() {}, cancel() {} })),
      thumbnail: () => Promise.resolve(null),
      meta: () => Promise.reject(new Error('no')),
    },
  };
});

const t = (key: string, opts: Record<string, unknown> = {}) => i18next.t(key, opts);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const jpg = (name: string) => new File([JPEG], name, { type: 'image/jpeg' });

const report: FacePhotoMatchResult = {
  matched: [
    { file: 'G001.jpg', person: { id: 'p1', name: '王小明', detail: '七年级1班', photoFileId: null } },
    { file: 'G002.jpg', person: { id: 'p2', name: '李华', detail: '七年级2班', photoFileId: 'old' } },
  ],
  ambiguous: [{ file: '张伟.jpg', reason: 'people', candidates: [{ id: 'p3', name: '张伟', detail: '七年级1班', photoFileId: null }, { id: 'p4', name: '张伟', detail: '八年级3班', photoFileId: null }] }],
  unmatched: ['nobody.jpg'],
};

function Harness({ onOpenChange }: { onOpenChange(open: boolean): void }) {
  const [open, setOpen] = useState(true);
  return (
    <FacePhotosDialog
      kind="student"
      pageKey="k12.user.student"
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        setOpen(next);
      }}
    />
  );
}

function setup() {
  const onOpenChange = vi.fn();
  const user = userEvent.setup({ applyAccept: false });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Harness onOpenChange={onOpenChange} />
    </QueryClientProvider>,
  );
  return { user, onOpenChange, input: screen.getByLabelText(t('people:photos.filesInput')) as HTMLInputElement };
}

async function chooseBatch() {
  vi.mocked(matchFacePhotos).mockResolvedValue(report);
  const s = setup();
  await s.user.upload(s.input, [jpg('G001.jpg'), jpg('G002.jpg'), jpg('张伟.jpg'), jpg('nobody.jpg'), new File(['<html><script>x</script></html>'], 'page.jpg', { type: 'image/jpeg' })]);
  await screen.findByTestId('face-photos-confirm');
  return s;
}

beforeEach(() => vi.clearAllMocks());
afterEach(() => toast.dismiss());

describe('batch face photos dialog (docs/product-rules.md#face-photos)', () => {
  it('refuses a page renamed .jpg before sending, matches the rest by name and uploads only matched files', async () => {
    await chooseBatch();
    expect(matchFacePhotos).toHaveBeenCalledWith('k12.user.student', ['G001.jpg', 'G002.jpg', '张伟.jpg', 'nobody.jpg']);
    expect(screen.getByTestId('face-photos-matched')).toHaveTextContent(t('people:photos.group.matched', { count: 2 }));
    expect(screen.getByTestId('face-photos-ambiguous')).toHaveTextContent(t('people:photos.group.ambiguous', { count: 1 }));
    expect(screen.getByTestId('face-photos-unmatched')).toHaveTextContent(t('people:photos.group.unmatched', { count: 1 }));
    expect(screen.getByTestId('face-photos-refused')).toHaveTextContent(t('people:photos.group.refused', { count: 1 }));
    const list = screen.getByRole('tabpanel');
    expect(within(list).getByText('王小明（七年级1班）')).toBeInTheDocument();
    expect(within(list).getByText(t('people:photos.hasPhoto'))).toBeInTheDocument();
  });

  it('without Replace only people who have no photo are set; with it both, marked to replace', async () => {
    const { user, onOpenChange } = await chooseBatch();
    expect(screen.getByText(t('people:photos.summary', { count: 1 }))).toBeInTheDocument();
    await user.click(screen.getByTestId('face-photos-confirm'));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    const [[, items]] = vi.mocked(applyFacePhotos).mock.calls;
    expect(items).toEqual([{ personId: 'p1', fileId: expect.any(String), replace: false }]);
    // The photo not used is removed from the store.
    const [[left]] = vi.mocked(discardFacePhotos).mock.calls;
    expect(left).toHaveLength(1);
    expect(left[0]).not.toBe(items[0].fileId);
  });

  it('ticking Replace sends the person who has a photo too', async () => {
    const { user } = await chooseBatch();
    await user.click(screen.getByTestId('face-photos-replace'));
    expect(screen.getByText(t('people:photos.summary', { count: 2 }))).toBeInTheDocument();
    await user.click(screen.getByTestId('face-photos-confirm'));
    await waitFor(() => expect(applyFacePhotos).toHaveBeenCalled());
    expect(vi.mocked(applyFacePhotos).mock.calls[0][1].map((i) => [i.personId, i.replace])).toEqual([
      ['p1', true],
      ['p2', true],
    ]);
  });

  it('cancel sets nothing and removes the files it uploaded', async () => {
    const { user, onOpenChange } = await chooseBatch();
    await user.click(screen.getByRole('button', { name: t('people:photos.cancel') }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(applyFacePhotos).not.toHaveBeenCalled();
    await waitFor(() => expect(discardFacePhotos).toHaveBeenCalled());
    expect(vi.mocked(discardFacePhotos).mock.calls[0][0]).toHaveLength(2);
  });
});

describe('runBounded', () => {
  it('runs at most the limit at once, answers in the list’s order and goes on after a failure', async () => {
    let running = 0;
    let most = 0;
    const results = await runBounded([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n % 3));
      running--;
      if (n === 4) throw new Error('four');
      return n * 10;
    });
    expect(most).toBe(3);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 20, 30, 'four', 50, 60, 70]);
  });
});

