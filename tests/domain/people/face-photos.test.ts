import { describe, expect, it } from 'vitest';
import { facePhotoApplySchema, facePhotoKey, matchFacePhotos, type FacePhotoCandidate } from '@/domain/people/face-photos';

const person = (id: string, name: string, keys: (string | null)[], photoFileId: string | null = null): FacePhotoCandidate => ({ id, name, detail: null, photoFileId, keys: [name, ...keys] });

describe('face photo matching (docs/product-rules.md#face-photos)', () => {
  it('a file name counts without its folder, extension, spaces, full width and letter case', () => {
    expect(facePhotoKey('照片/初一(1)班/g3201.JPG')).toBe('G3201');
    expect(facePhotoKey(' 张伟 .jpeg')).toBe('张伟');
    expect(facePhotoKey('１３８００００００００.png')).toBe('13800000000');
  });

  it('sorts files into matched, ambiguous (several people, or several files for one person) and unmatched', () => {
    const people = [person('1', '张伟', ['13800000001', 'T01']), person('2', '张伟', ['13800000002', 'T02']), person('3', '李明', ['13800000003', 'T03'], 'f')];
    const result = matchFacePhotos(['t01.jpg', '张伟.png', '李明.jpg', '13800000003.jpg', '王芳.jpg'], people);
    expect(result.matched).toEqual([{ file: 't01.jpg', person: { id: '1', name: '张伟', detail: null, photoFileId: null } }]);
    expect(result.ambiguous.map((a) => [a.file, a.reason, a.candidates.map((c) => c.id)])).toEqual([
      ['张伟.png', 'people', ['1', '2']],
      ['李明.jpg', 'files', ['3']],
      ['13800000003.jpg', 'files', ['3']],
    ]);
    expect(result.unmatched).toEqual(['王芳.jpg']);
  });

  it('a person whose name equals another key of theirs is still one match', () => {
    const result = matchFacePhotos(['A1.jpg'], [person('1', 'A1', ['a1', null])]);
    expect(result.matched.map((m) => m.person.id)).toEqual(['1']);
  });

  it('a batch names each person once', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(facePhotoApplySchema.safeParse({ items: [{ personId: id, fileId: id }] }).data?.items[0].replace).toBe(false);
    const twice = facePhotoApplySchema.safeParse({ items: [{ personId: id, fileId: id }, { personId: id, fileId: id }] });
    expect(twice.error?.issues[0].message).toBe('people:photos.error.personTwice');
  });
});
