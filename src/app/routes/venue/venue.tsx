import { DeviceFormScreen, DeviceListScreen } from '@/features/venue/components/device-screens';
import { VenueDevicesScreen, VenueFormScreen, VenueListScreen } from '@/features/venue/components/venue-screens';
import { useScreenFamily } from '../screen-family';


/** venue/device. */
export function DevicePage() {
  return <DeviceListScreen family={useScreenFamily('venue.device')} />;
}
/** venue/device/add and edit/:id. */
export function DeviceFormPage() {
  return <DeviceFormScreen family={useScreenFamily('venue.device.add', 'venue.device.edit')} />;
}
/** venue/place. */
export function VenuePage() {
  return <VenueListScreen family={useScreenFamily('venue.place')} />;
}
/** venue/place/add and edit/:id. */
export function VenueFormPage() {
  return <VenueFormScreen family={useScreenFamily('venue.place.add', 'venue.place.edit')} />;
}
/** venue/place/device/:id. */
export function VenueDevicesPage() {
  return <VenueDevicesScreen family={useScreenFamily('venue.place.device')} />;
}
