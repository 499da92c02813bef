/** i18n keys (namespace `dataCenter`) of the data-centre and wall rules the server enforces (docs/product-rules.md#data-centre). */
export const DC_MSG = {
  /** A screen link token that does not exist (or never did). */
  screenInvalid: 'dataCenter:screen.invalid',
  /** A screen link an administrator revoked. */
  screenRevoked: 'dataCenter:screen.revoked',
  /** A screen link past its expiry (a meet's board link, a week after the meet). */
  screenExpired: 'dataCenter:screen.expired',
  /** A scene the link's playlist does not include. */
  sceneNotInPlaylist: 'dataCenter:screen.sceneNotInPlaylist',
  /** A screen link for an organisation outside the caller's scope. */
  orgOutOfScope: 'dataCenter:error.orgOutOfScope',
  /** The district scene in a playlist of a school (only a management organisation's wall shows its schools). */
  districtSceneOnly: 'dataCenter:error.districtSceneOnly',
} as const;
export type DataCenterMessageKey = (typeof DC_MSG)[keyof typeof DC_MSG];
