// Views of unmasked personal data and export approvals: docs/product-rules.md#data-protection.
export {};
