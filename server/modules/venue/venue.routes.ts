import type { FastifyPluginAsync } from 'fastify';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import { deviceCredentialSchema, deviceListQuery, deviceOptionsSchema, deviceRowSchema, deviceSaveSchema } from '@/domain/venue/devices';
import { venueDeviceCandidateQuery, venueDeviceLinkedSchema, venueDeviceListQuery, venueDevicesSchema, venueListQuery, venueRowSchema, venueSaveSchema } from '@/domain/venue/venues';
import { resourceAction } from '../../lib/action';
import { registerLinked } from '../../lib/linked';
import { registerResource } from '../../lib/resource';
import { deviceSheet } from './device.export';
import { createDevice, deleteDevice, deviceById, deviceOptions, devicePage, deviceRows, issueDeviceSecret, revokeDeviceSecret, updateDevice } from './device.service';
import { attachDevices, createVenue, deleteVenue, detachDevices, updateVenue, venueById, venueDeviceCandidates, venueDevicePage, venuePage } from './venue.service';
import type { SchoolFamily } from '@/domain/menus/access';

/**
 * Devices (venue/device) and venues (venue/place, with its device association screen) of /api/busi/web/{k12|gx}
 * (docs/product-rules.md#devices, #venues).
 */
export const venueRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {

  const deviceKey = `${family}.venue.device`;
  const placeKey = `${family}.venue.place`;
  await registerResource(
    app,
    family,
    {
      key: deviceKey,
      entity: 'device',
      list: { query: deviceListQuery, handler: devicePage },
      get: deviceById,
      create: { body: deviceSaveSchema, handler: (tx, actor, body) => createDevice(tx, actor, body, app.now()) },
      update: { body: deviceSaveSchema, handler: (tx, actor, id, body) => updateDevice(tx, actor, id, body, app.now()) },
      remove: deleteDevice,
      response: { row: deviceRowSchema, detail: deviceRowSchema, saved: deviceRowSchema },
    },
    (scope) => {
      // The association screen lists the organisation's devices to choose from.
      resourceAction(scope, { method: 'GET', path: '/options', access: [deviceKey, 'view', [placeKey, 'device']], read: deviceOptions, answer: deviceOptionsSchema });
      resourceAction(scope, {
        method: 'GET',
        path: '/export',
        access: [deviceKey, 'export'],
        query: deviceListQuery.omit({ current: true, size: true }),
        answers: 'file',
        read: async (db, actor, { query }, { t }) => ({ sheet: deviceSheet(await deviceRows(db, actor, query), t), fileName: `${t('venue:device.exportName')}.xlsx` }),
      });
      // The device API secret (docs/product-rules.md#ingest): issue (activating the device) or rotate, and revoke.
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/secret',
        access: [deviceKey, 'edit'],
        params: idParamsSchema,
        entity: 'device',
        audit: 'issueSecret',
        answer: deviceCredentialSchema,
        // The secret is shown once, in the answer; the audit row keeps the device without it.
        write: async (tx, actor, { params }) => {
          const issued = await issueDeviceSecret(tx, actor, params.id, app.now());
          return { ...issued.change, answer: issued.credential };
        },
      });
      resourceAction(scope, {
        method: 'DELETE',
        path: '/:id/secret',
        access: [deviceKey, 'edit'],
        params: idParamsSchema,
        entity: 'device',
        audit: 'revokeSecret',
        answers: 'nothing',
        message: OK_MSG.saved,
        write: (tx, actor, { params }) => revokeDeviceSecret(tx, actor, params.id),
      });
    },
  );

  await registerResource(
    app,
    family,
    {
      key: placeKey,
      entity: 'venue',
      list: { query: venueListQuery, handler: venuePage },
      get: venueById,
      create: { body: venueSaveSchema, handler: createVenue },
      update: { body: venueSaveSchema, handler: updateVenue },
      remove: deleteVenue,
      response: { row: venueRowSchema, detail: venueRowSchema, saved: venueRowSchema },
    },
  );
  // device/:id: the venue's devices, associated from the organisation's and detached (the device stays).
  await registerLinked(app, family, {
    key: placeKey,
    action: 'device',
    entity: 'venue',
    path: 'devices',
    owner: venueById,
    members: { query: venueDeviceListQuery, handler: venueDevicePage },
    candidates: { query: venueDeviceCandidateQuery, handler: venueDeviceCandidates },
    link: { body: venueDevicesSchema, ids: 'deviceIds', audit: 'attachDevices', handler: attachDevices },
    unlink: { audit: 'detachDevice', handler: detachDevices },
    unlinked: OK_MSG.saved,
    response: { member: deviceRowSchema, linked: venueDeviceLinkedSchema, candidate: deviceRowSchema },
  });
};
