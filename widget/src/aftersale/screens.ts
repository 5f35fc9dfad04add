// The after-sale screens, by the name the main bundle's routes use.
import { ResellerSuccess, ResellersPage } from './Resellers';
import { ServicesPage } from './Services';
import { UpsellPage, UpsellSuccess } from './Upsell';

export const screens = {
  services: ServicesPage,
  upsell: UpsellPage,
  upsellSuccess: UpsellSuccess,
  resellers: ResellersPage,
  resellerSuccess: ResellerSuccess,
};

export type Screens = typeof screens;
export type ScreenName = keyof Screens;
