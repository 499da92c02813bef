// Notices (通知公告): docs/product-rules.md#notices.
export {};
