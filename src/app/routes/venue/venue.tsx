import { DeviceFormScreen, DeviceListScreen } from '@/features/venue/components/device-screens';
import { VenueDevicesScreen, VenueFormScreen, VenueListScreen } from '@/features/venue/components/venue-screens';
import { useScreenFamily } from '../physique/family';

const venueFamily = (f: 'admin' | 'k12' | 'gx') => (f === 'gx' ? 'gx' : 'k12');

/** venue/device. */
export function DevicePage() {
  return <DeviceListScreen family={venueFamily(useScreenFamily())} />;
}
/** venue/device/add and edit/:id. */
export function DeviceFormPage() {
  return <DeviceFormScreen family={venueFamily(useScreenFamily())} />;
}
/** venue/place. */
export function VenuePage() {
  return <VenueListScreen family={venueFamily(useScreenFamily())} />;
}
/** venue/place/add and edit/:id. */
export function VenueFormPage() {
  return <VenueFormScreen family={venueFamily(useScreenFamily())} />;
}
/** venue/place/device/:id. */
export function VenueDevicesPage() {
  return <VenueDevicesScreen family={venueFamily(useScreenFamily())} />;
}
