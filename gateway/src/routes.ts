import { PUBLIC_ROUTES, type ApiRoute } from '@tolk/contracts';

/** A route of the gateway, as the services' APIs declare it (@tolk/contracts). */
export type GatewayRoute = ApiRoute;

/**
 * Every route the gateway exposes: those the services' APIs declare, beside their operations and
 * schemas (`PUBLIC_API` of @tolk/contracts). Methods are the service's business: it answers 405 itself.
 */
export const ROUTES: readonly GatewayRoute[] = PUBLIC_ROUTES;
