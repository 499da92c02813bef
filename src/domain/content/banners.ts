import { z } from 'zod';
import { BANNER_MAX } from '../constants';
import { blankAsNull, enumFilter, requiredId } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { enumTable } from '../presentation';

/**
 * Banners (docs/product-rules.md#banners): carousel images of an organisation per position (the login screen, the
 * landing page), at most BANNER_MAX per position, each with an optional http(s) link, switched on/off and moved
 * up/down within its position (never past the first or last place).
 */

export const BANNER_POSITIONS = ['login', 'home'] as const;
export type BannerPosition = (typeof BANNER_POSITIONS)[number];
export const BANNER_POSITION_TABLE = enumTable(BANNER_POSITIONS, (p) => `content:banner.positions.${p}`);

export const BANNER_TITLE_MAX = 30;
export const BANNER_LINK_MAX = 500;
/** A link must start with http:// or https:// (docs/product-rules.md#banners). */
export const HTTP_LINK = /^https?:\/\/[^\s]+$/i;

export { BANNER_MAX };

export const bannerSaveSchema = z.object({
  title: z
    .string({ error: 'content:validation.banner.titleRequired' })
    .trim()
    .min(1, 'content:validation.banner.titleRequired')
    .max(BANNER_TITLE_MAX, 'content:validation.banner.titleLength'),
  position: z.enum(BANNER_POSITIONS, { error: 'content:validation.banner.positionRequired' }),
  // The form holds null until an image is uploaded.
  imageFileId: z.preprocess((v) => v ?? '', requiredId('content:validation.banner.imageRequired')),
  link: z.preprocess(
    blankAsNull,
    z
      .string()
      .trim()
      .max(BANNER_LINK_MAX, 'content:validation.banner.linkLength')
      .regex(HTTP_LINK, 'content:validation.banner.linkFormat')
      .nullable()
      .optional(),
  ),
  enabled: z.preprocess((v) => v === undefined || v === true || v === 'true', z.boolean()),
  version: versionField.optional(),
});
export type BannerSave = z.output<typeof bannerSaveSchema>;
export type BannerForm = z.input<typeof bannerSaveSchema>;

export const bannerListQuery = listQuery({ title: textFilter(), position: enumFilter(BANNER_POSITIONS) });
export type BannerListQuery = z.output<typeof bannerListQuery>;

/** `PUT …/:id/status`: switch a banner on or off. */
export const bannerStatusSchema = z.object({ enabled: z.boolean(), version: versionField.optional() });
/** `PUT …/:id/move`: one place up or down within its position. */
export const bannerMoveSchema = z.object({ direction: z.enum(['up', 'down']), version: versionField.optional() });
export type BannerMove = z.output<typeof bannerMoveSchema>;

export interface BannerRow {
  id: string;
  title: string;
  position: BannerPosition;
  imageFileId: string;
  link: string | null;
  enabled: boolean;
  /** 1-based place within the position. */
  sort: number;
  /** Banners in the same position, so the list knows the last place. */
  positionCount: number;
  updatedAt: string;
  version: number;
}

/** The public carousel of a position (login screen, landing page): enabled banners in order. */
export const carouselQuery = z.object({ position: z.enum(BANNER_POSITIONS), orgId: z.string().max(64).optional() });

export interface CarouselSlide {
  id: string;
  title: string;
  link: string | null;
  /** Public URL of the image. */
  image: string;
}

/** A banner as its list, detail and saves answer it (BannerRow; the OpenAPI document's schema). */
export const bannerRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  position: z.enum(BANNER_POSITIONS),
  imageFileId: z.string(),
  link: z.string().nullable(),
  enabled: z.boolean(),
  sort: z.number().int().describe('1-based place within the position'),
  positionCount: z.number().int().describe('Banners in the same position'),
  updatedAt: z.string(),
  version: z.number().int(),
});
