import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi, type SchoolFamily } from '@/domain/menus/access';
import type { DeviceCredential } from '@/domain/activities/ingest';
import type { DeviceOptions, DeviceRow, DeviceSave } from '@/domain/venue/devices';
import type { VenueRow, VenueSave } from '@/domain/venue/venues';
import { del, download, get, post, saveFile, type Params } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';


const cache = new Map<string, Resource<never, never>>();
function resource<Row, Save>(key: string): Resource<Row, Save> {
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<never, never>({ base: pageApi(key) })));
  return r as unknown as Resource<Row, Save>;
}

/** Devices (venue/device) of a family. */
export const devices = (family: SchoolFamily) => resource<DeviceRow, DeviceSave>(`${family}.venue.device`);

/** Venues (venue/place) of a family. */
export const venues = (family: SchoolFamily) => resource<VenueRow, VenueSave>(`${family}.venue.place`);

/** The venues and main devices the device form and filters choose from. */
export function useDeviceOptions(family: SchoolFamily) {
  const api = devices(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<DeviceOptions>(`${api.base}/options`) });
}

/** The devices of the current filter as .xlsx. */
export async function exportDevices(family: SchoolFamily, filters: Params, fileName: string) {
  saveFile(await download(`${devices(family).base}/export`, filters), `${fileName}.xlsx`);
}

/** Issuing (activating if needed, or rotating) and revoking a device's API secret refresh the device list. */
export function useDeviceSecretWrites(family: SchoolFamily) {
  const client = useQueryClient();
  const api = devices(family);
  const onSuccess = () => client.invalidateQueries({ queryKey: api.key });
  return {
    issue: useMutation({ mutationFn: (id: string) => post<DeviceCredential>(`${api.base}/${id}/secret`), onSuccess }),
    revoke: useMutation({ mutationFn: (id: string) => del<null>(`${api.base}/${id}/secret`), onSuccess }),
  };
}
