/** The audit feature's one lazy chunk (audit-views.ts), shared by the receipt button and the admin's notice. */
export const loadAuditViews = () => import('./audit-views.ts');
