import { and, asc, eq } from 'drizzle-orm';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema as envelope, ok, pageSchema as paged } from '@/domain/api';
import {
  appBatchSchema,
  appIdentitySchema,
  appRecordQuery,
  appRecordRowSchema,
  appSelfTestRowSchema,
  appSignInSchema,
  appTokenSchema as tokenSchema,
  appVideoCreateHeaders,
  deviceBatchSchema,
  DEVICE_BATCH_MAX,
  deviceStudentQuery,
  deviceStudentSchema,
  ingestSummarySchema,
  type AppIdentity,
} from '@/domain/activities/ingest';
import { refreshRequestSchema } from '@/domain/auth/schemas';
import { ERR } from '@/domain/errors';
import { UPLOAD_LIMIT } from '@/domain/constants';
import { uploadParamsSchema as uploadParams } from '@/domain/uploads/requests';
import {
  appNotificationListSchema,
  appNotificationParamsSchema,
  appNotificationSchema,
  appReportParamsSchema,
  appReportQuerySchema,
  appReportRowSchema,
  appReportSchema,
} from '@/domain/parent-reports/parent-reports';
import { appNotificationList, appReport, appReportList, markNotificationRead } from '../parent-reports/app-reports.service';
import { beginUpload, touchUpload, uploadResult, userUploadOf } from '../files/files.service';
import { createTusServer, tusMetadata } from '../files/files.tus';
import { classes, students } from '../../db/schema/school';
import { devices } from '../../db/schema/venue';
import { AppError } from '../../lib/app-error';
import { CONSOLE_DOC_URL } from '../../lib/openapi';
import { exemptionAppRoutes } from '../exemptions/exemptions.app-routes';
import { dataRequestAppRoutes } from '../retention/data-requests.app-routes';
import { consentAppRoutes } from '../consent/consent.app-routes';
import { noticeAppRoutes } from '../notices/notices.app-routes';
import { requireConsent } from '../consent/consent.service';
import { lessonDeviceRoutes } from '../lessons/lessons.device-routes';
import { heartRateDeviceRoutes } from '../lesson-load/heart-rate.device-routes';
import type { ModuleOptions } from '../module-options';
import { refresh, revokeSession } from '../auth/sso.service';
import { appIdentity, appRecordPage, appSelfTestPage, appSignIn, studentOfCaller, writableStudents } from './app.service';
import { authenticateDevice } from './device-auth';
import { ingestBatch } from './ingest.service';

/**
 * The versioned ingestion API (docs/product-rules.md#ingest) and its OpenAPI document, generated from these routes'
 * schemas: `/api/v1/device/*` (HTTP Basic: serial number and secret), `/api/v1/app/*` (bearer token of a student's or
 * parent's own account), `/api/docs` (the document, readable by a person; JSON at `/api/docs/json`).
 * Hand routes: not the console (no session, no catalogue page): a device's or the app's own sign-in, and tus streams.
 */
export const ingestRoutes: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'tiyu ingestion API',
        version: '1',
        description:
          'Devices and the student/parent app send records here. Every record carries the sender\'s own id (`clientId`): a resent batch creates nothing new and answers `duplicate` for records already stored. Each record is accepted or rejected on its own, with a reason in the language of `accept-language` (zh-CN, zh-TW, en-US). A device batch is one transaction of up to ' +
          `${DEVICE_BATCH_MAX} records. Values are in the unit of their item (s, cm, ml, count, m, steps); times carry their time-zone offset.`,
      },
      components: {
        securitySchemes: {
          device: { type: 'http', scheme: 'basic', description: 'Serial number as the user name, the secret issued in device management as the password' },
          app: { type: 'http', scheme: 'bearer', description: 'access_token from POST /api/v1/app/login' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(deviceRoutes, { prefix: '/v1/device' });
  await app.register(appRoutes, { ...opts, prefix: '/v1/app' });
  // One page for both documents: the device/app API first (device makers), the console API in the top bar's list.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: false,
    uiConfig: {
      urls: [
        { name: 'Device and app API', url: '/api/docs/json' },
        { name: 'Console API', url: CONSOLE_DOC_URL },
      ],
    },
  });
};

const deviceRoutes: FastifyPluginAsync = async (scope) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  scope.decorateRequest('device', null);
  scope.addHook('onRequest', async (request: FastifyRequest, reply) => {
    try {
      request.device = await authenticateDevice(scope.db, request);
    } catch (error) {
      void reply.header('www-authenticate', 'Basic realm="tiyu-device"');
      throw error;
    }
  });
  const security = [{ device: [] }];

  r.post(
    '/records',
    {
      schema: {
        tags: ['device'],
        summary: 'Post a batch of records',
        description:
          'Up to 1,000 records in one transaction. Late and out-of-order records are fine (up to 90 days old); a record measured in the future is rejected. `measuredAt` is ISO 8601 with its time-zone offset (`2026-09-01T08:30:00+08:00` or `…Z`); a batch with a time without offset is refused whole (400 naming the field), never read in the server time zone. `kind` selfTest writes a physique item into the test records; other kinds are activity records, and contest/homework/training/lesson records name what they belong to in `refId`. Students by `studentId` or `regNo`, of the device\'s school only.',
        security,
        body: deviceBatchSchema,
        response: { 200: envelope(ingestSummarySchema) },
      },
    },
    async (request) => {
      const device = request.device!;
      const now = scope.now();
      const summary = await scope.db.transaction(async (tx) => {
        const result = await ingestBatch(tx, { source: 'device', ...device }, request.body.records, now, (k, p) => request.t(k, p));
        await tx.update(devices).set({ lastSeenAt: now }).where(eq(devices.id, device.deviceId));
        return result;
      });
      return ok(summary);
    },
  );

  r.get(
    '/students',
    {
      schema: {
        tags: ['device'],
        summary: "The device school's students",
        description: 'Studying students of the device\'s school (optionally one class), to match a face, a card or a bib to a `studentId`.',
        security,
        querystring: deviceStudentQuery,
        response: { 200: envelope(deviceStudentSchema.array()) },
      },
    },
    async (request) => {
      const device = request.device!;
      const rows = await scope.db
        .select({ id: students.id, name: students.name, regNo: students.regNo, gender: students.gender, classId: students.classId, className: classes.name })
        .from(students)
        .innerJoin(classes, eq(classes.id, students.classId))
        .where(
          and(
            eq(students.orgId, device.orgId),
            eq(students.enabled, true),
            eq(students.status, 'studying'),
            request.query.classId ? eq(students.classId, request.query.classId) : undefined,
          ),
        )
        .orderBy(asc(classes.name), asc(students.name));
      return ok(rows);
    },
  );

  await scope.register(lessonDeviceRoutes);
  await scope.register(heartRateDeviceRoutes);
};

declare module 'fastify' {
  interface FastifyRequest {
    appIdentity: AppIdentity | null;
  }
}

const appRoutes: FastifyPluginAsync<ModuleOptions> = async (scope, opts) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  scope.decorateRequest('appIdentity', null);
  const security = [{ app: [] }];
  const limited = { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } };

  r.post(
    '/login',
    {
      config: limited,
      schema: {
        tags: ['app'],
        summary: "Sign in with a student's or parent's own account",
        description: 'The password is sent as its SHA-256 hex. Five wrong passwords in a row lock the account for 15 minutes.',
        body: appSignInSchema,
        response: { 200: envelope(tokenSchema) },
      },
    },
    async (request) => ok(await appSignIn(scope.db, scope.now(), request.body, { ip: request.ip, userAgent: request.headers['user-agent'] })),
  );
  r.post(
    '/token',
    { config: limited, schema: { tags: ['app'], summary: 'Exchange the refresh token for a new pair', body: refreshRequestSchema, response: { 200: envelope(tokenSchema) } } },
    async (request) => ok(await refresh(scope.db, scope.now(), request.body.refresh_token)),
  );

  // Everything below needs a signed-in student or parent.
  await scope.register(async (signed) => {
    const s = signed.withTypeProvider<ZodTypeProvider>();
    signed.addHook('onRequest', scope.authenticate);
    signed.addHook('preValidation', async (request) => {
      const identity = await appIdentity(scope.db, request.session!.userId);
      if (!identity) throw new AppError(403, ERR.forbidden);
      request.appIdentity = identity;
    });

    // Videos go up resumably through the file store's tus kit (purpose `video`: judged by content, its size ceiling),
    // so a phone on a weak network resumes from the server's offset instead of starting again.
    signed.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const tus = createTusServer(scope, opts.storage, `${signed.prefix}/videos`);
    /** The caller's own upload, for one of the students it acts for; 404 otherwise. */
    const ownUpload = async (identity: AppIdentity, uploadId: string) => {
      const upload = await userUploadOf(scope.db, identity.userId, uploadId);
      if (!upload || !identity.students.some((st) => st.orgId === upload.orgId)) throw new AppError(404, ERR.notFound);
      return upload;
    };
    s.post(
      '/videos',
      {
        schema: {
          tags: ['app'],
          summary: 'Start a resumable video upload (tus 1.0 creation)',
          description:
            `tus 1.0 (https://tus.io/protocols/resumable-upload): \`Upload-Length\` is the size in bytes (at most ${UPLOAD_LIMIT.video} for a video), \`Upload-Metadata\` may carry \`filename\` and, for a parent, \`studentId\` (base64 values, as tus defines). Answers 201 with \`Location\`, the upload's URL. Then send the bytes with \`PATCH {Location}\` (\`Content-Type: application/offset+octet-stream\`, \`Upload-Offset\`), in one request or in chunks. After an interruption, \`HEAD {Location}\` answers the \`Upload-Offset\` the server holds; go on from there. The PATCH that completes the upload answers the stored file (\`{ code, data: { id, … } }\`), whose \`id\` a record names as \`videoFileId\`. The file is judged by its content: only MP4 is taken (a renamed picture is refused with 400 and the upload dropped).`,
          security,
          headers: appVideoCreateHeaders,
        },
      },
      async (request, reply) => {
        const identity = request.appIdentity!;
        const meta = tusMetadata(request.headers['upload-metadata']);
        const studentId = studentOfCaller(identity, meta.studentId || undefined);
        const student = identity.students.find((st) => st.id === studentId)!;
        // docs/product-rules.md#consent: no video of a student without the guardian's consent is taken.
        await requireConsent(scope.db, 'video', [student]);
        const id = await beginUpload(scope.db, { orgId: student.orgId, userId: identity.userId }, 'video', meta.filename ?? '', Number(request.headers['upload-length']), scope.now());
        reply.hijack();
        await tus.handle(request.raw, reply.raw, id);
      },
    );
    s.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: '/videos/:uploadId',
      schema: {
        tags: ['app'],
        summary: 'Continue, probe or cancel a resumable video upload (tus 1.0)',
        description:
          '`HEAD`: the `Upload-Offset` the server holds (after an interruption, continue from it). `PATCH`: the next bytes from `Upload-Offset` (`Content-Type: application/offset+octet-stream`); the PATCH that completes the upload answers the stored file. `DELETE`: cancel. Another user\'s upload answers 404.',
        security,
        params: uploadParams,
      },
      handler: async (request, reply) => {
        const upload = await ownUpload(request.appIdentity!, request.params.uploadId);
        if (upload.fileId) {
          // Finished: a client whose last answer was lost learns it is complete and reads the file from /uploads/{id}.
          if (request.method !== 'HEAD') throw new AppError(404, ERR.notFound);
          reply.headers({ 'tus-resumable': '1.0.0', 'upload-offset': upload.size, 'upload-length': upload.size, 'cache-control': 'no-store' });
          return reply.status(200).send();
        }
        if (request.method === 'PATCH') await touchUpload(scope.db, upload.id, scope.now());
        reply.hijack();
        await tus.handle(request.raw, reply.raw);
      },
    });
    s.get(
      '/uploads/:uploadId',
      {
        schema: {
          tags: ['app'],
          summary: 'The video a finished upload became',
          description: 'For a client whose completing PATCH lost its answer: the stored file of a finished upload (404 while unfinished).',
          security,
          params: uploadParams,
        },
      },
      async (request) => {
        const upload = await ownUpload(request.appIdentity!, request.params.uploadId);
        return ok(await uploadResult(scope.db, { orgId: upload.orgId, userId: upload.userId }, upload.id));
      },
    );

    await signed.register(exemptionAppRoutes, { storage: opts.storage });
    await signed.register(dataRequestAppRoutes);
    await signed.register(consentAppRoutes);
    await signed.register(noticeAppRoutes, { storage: opts.storage });

    s.post('/logout', { schema: { tags: ['app'], summary: 'Sign out', security } }, async (request) => {
      await revokeSession(scope.db, scope.now(), request.session!.sessionId);
      return ok(null);
    });

    s.get(
      '/me',
      {
        schema: {
          tags: ['app'],
          summary: 'Who is signed in and whom they may act for',
          security,
          response: { 200: envelope(appIdentitySchema) },
        },
      },
      async (request) => ok(request.appIdentity!),
    );

    s.post(
      '/records',
      {
        schema: {
          tags: ['app'],
          summary: 'Submit self tests, exercise sessions, homework and contest entries',
          description:
            'Up to 100 records. `measuredAt` is ISO 8601 with its time-zone offset (`2026-09-01T08:30:00+08:00` or `…Z`); a submission with a time without offset is refused whole (400 naming the field). A student may leave out `studentId` (itself); a parent names one of its children. Homework and contest records name the homework or contest in `refId`; an entry after the end is rejected. A video goes up first, resumably (tus: `POST /api/v1/app/videos`), and is named by the stored file\'s id in `videoFileId`.',
          security,
          body: appBatchSchema,
          response: { 200: envelope(ingestSummarySchema) },
        },
      },
      async (request) => {
        const identity = request.appIdentity!;
        const self = identity.identity === 'student' ? identity.students[0].id : undefined;
        const records = request.body.records.map((rec) => (rec.studentId || rec.regNo ? rec : { ...rec, studentId: self }));
        const summary = await scope.db.transaction((tx) =>
          ingestBatch(tx, { source: 'app', userId: identity.userId, studentIds: writableStudents(identity) }, records, scope.now(), (k, p) => request.t(k, p)),
        );
        return ok(summary);
      },
    );

    // Reports parents read (docs/product-rules.md#physique-year, "Reports parents read"): released plans only.
    s.get(
      '/reports',
      { schema: { tags: ['app'], summary: "The released physique reports of the caller (a student) or its children (a parent), newest first", security, response: { 200: envelope(appReportRowSchema.array()) } } },
      async (request) => ok(await appReportList(scope.db, request.appIdentity!)),
    );
    s.get(
      '/reports/:studentId',
      {
        schema: {
          tags: ['app'],
          summary: "A child's released physique report",
          description:
            "The plan named by `planId` (default: the latest released one): each item's value, score and level against the standard's bands for the student's grade and gender (the values of pass, good and excellent; BMI: its band limits), last school year's released values beside it, the items to improve and advice per item and level in the language of `accept-language`. Another family's child, an unreleased plan or one without the child's result answers 404.",
          security,
          params: appReportParamsSchema,
          querystring: appReportQuerySchema,
          response: { 200: envelope(appReportSchema) },
        },
      },
      async (request) => ok(await appReport(scope.db, request.appIdentity!, request.params.studentId, request.query.planId, (k, p) => request.t(k, p))),
    );
    s.get(
      '/notifications',
      { schema: { tags: ['app'], summary: 'The caller\'s notifications, newest first, and the unread count', security, response: { 200: envelope(appNotificationListSchema) } } },
      async (request) => ok(await appNotificationList(scope.db, request.appIdentity!, (k, p) => request.t(k, p))),
    );
    s.post(
      '/notifications/:id/read',
      { schema: { tags: ['app'], summary: 'Mark one of the caller\'s notifications read', security, params: appNotificationParamsSchema, response: { 200: envelope(appNotificationSchema) } } },
      async (request) => ok(await markNotificationRead(scope.db, request.appIdentity!, request.params.id, scope.now(), (k, p) => request.t(k, p))),
    );

    s.get(
      '/records',
      { schema: { tags: ['app'], summary: "A student's activity records, newest first", security, querystring: appRecordQuery, response: { 200: envelope(paged(appRecordRowSchema)) } } },
      async (request) => ok(await appRecordPage(scope.db, studentOfCaller(request.appIdentity!, request.query.studentId), request.query)),
    );
    s.get(
      '/self-tests',
      { schema: { tags: ['app'], summary: "A student's single-item test records, newest first", security, querystring: appRecordQuery, response: { 200: envelope(paged(appSelfTestRowSchema)) } } },
      async (request) => ok(await appSelfTestPage(scope.db, studentOfCaller(request.appIdentity!, request.query.studentId), request.query)),
    );
  });
};
