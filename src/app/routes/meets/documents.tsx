import { CertificateFormScreen } from '@/features/meets/components/certificate-form';
import { CertificateListScreen, PhotoScreen, StampScreen } from '@/features/meets/components/document-screens';
import { useMeetFamily } from './meet-family';

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
