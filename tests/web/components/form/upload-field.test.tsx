import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppProvider } from '@/app/provider';
import { UploadField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import type { StoredFile } from '@/domain/uploads/stored-file';
import { resetApp } from '../../app/fake-api';

// The file store answers when the test says: the upload is "on the way" until then.
const upload = vi.hoisted(() => ({ finish: (_: unknown) => undefined as void }));
vi.mock('@/components/upload/file-store', async (original) => {
  const real = await original<typeof import('@/components/upload/file-store')>();
  return {
    ...real,
    fileStoreTransport: {
      start: () => ({ done: new Promise<StoredFile>((resolve) => (upload.finish = resolve as (v: unknown) => void)), resumable: false, pause() {}, resume() {}, cancel() {} }),
      thumbnail: () => Promise.resolve(null),
      meta: (id: string) => Promise.resolve({ id, name: 'a.png', size: 8, mime: 'image/png' } as StoredFile),
    },
  };
});

const schema = z.object({ imageFileId: z.string().nullable() });
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('UploadField in a form', () => {
  beforeEach(() => resetApp());

  it('keeps the save busy while its file is on the way, then saves with the stored file', async () => {
    const submit = vi.fn((values: z.output<typeof schema>) => Promise.resolve(values));
    render(
      <AppProvider>
        <FormDialog open onOpenChange={() => undefined} schema={schema} defaults={{ imageFileId: null }} title="轮播图" submit={submit} data-testid="dialog">
          {() => <UploadField name="imageFileId" label="图片" purpose="banner" maxCount={1} />}
        </FormDialog>
      </AppProvider>,
    );
    fireEvent.change(screen.getByLabelText('图片'), { target: { files: [new File([PNG], 'a.png', { type: 'image/png' })] } });
    await waitFor(() => expect(screen.getByTestId('form-save')).toBeDisabled());
    await userEvent.click(screen.getByTestId('form-save'), { pointerEventsCheck: 0 });
    expect(submit).not.toHaveBeenCalled();
    upload.finish({ id: 'file-1', name: 'a.png', size: 12, mime: 'image/png' } as StoredFile);
    await waitFor(() => expect(screen.getByTestId('form-save')).toBeEnabled());
    await userEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(submit).toHaveBeenCalledWith({ imageFileId: 'file-1' }));
  });
});
