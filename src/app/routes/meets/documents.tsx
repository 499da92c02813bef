import { useAtomValue } from 'jotai';
import { familyOfTypePath } from '@/domain/menus/access';
import { meetFamily } from '@/features/meets/api';
import { CertificateFormScreen } from '@/features/meets/components/certificate-form';
import { CertificateListScreen, PhotoScreen, StampScreen } from '@/features/meets/components/document-screens';
import { uinfoAtom } from '@/lib/store';
import { useScreenFamily } from '../physique/family';

/** The family of a meet screen: its own for k12/gx pages, the signed-in organisation's for the shared /single pages. */
function useMeetFamily() {
  const screen = useScreenFamily();
  const uinfo = useAtomValue(uinfoAtom);
  return meetFamily(screen === 'k12' ? familyOfTypePath(uinfo?.currentTypePath) : screen);
}

/** sportsMeet/demeanor/:meetId. */
export function MeetPhotosPage() {
  return <PhotoScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/eStamp. */
export function StampPage() {
  return <StampScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/certificate. */
export function CertificatePage() {
  return <CertificateListScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/certificate/add and edit/:id. */
export function CertificateFormPage() {
  return <CertificateFormScreen family={useMeetFamily()} />;
}
