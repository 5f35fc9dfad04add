// The after-sale screens, by the name the main bundle's routes use.
import { RenewPage } from './RenewPage';
import { ResellerSuccess, ResellersPage } from './Resellers';
import { ServicesPage } from './Services';
import { UpsellPage, UpsellSuccess } from './Upsell';

export const screens = {
  services: ServicesPage,
  upsell: UpsellPage,
  upsellSuccess: UpsellSuccess,
  resellers: ResellersPage,
  resellerSuccess: ResellerSuccess,
  renew: RenewPage,
};

export type Screens = typeof screens;
export type ScreenName = keyof Screens;
