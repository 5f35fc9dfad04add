// The after-sale chunk (dist/aftersale.js): the services, upsell, resellers and renewal screens, by
// the name App's routes give them.
import { RenewPage } from './RenewPage';
import { ResellerSuccess, ResellersPage } from './Resellers';
import { ServicesPage } from './Services';
import { UpsellPage, UpsellSuccess } from './Upsell';
import { useSheet } from '../../element/styles';
import componentsCss from '../../ui/components.css?inline';
import aftersaleCss from './aftersale.css?inline';

export const screens = {
  services: ServicesPage,
  upsell: UpsellPage,
  upsellSuccess: UpsellSuccess,
  resellers: ResellersPage,
  resellerSuccess: ResellerSuccess,
  renew: RenewPage,
};

export type ScreenName = keyof typeof screens;

export function AfterSale({ screen }: { screen: ScreenName }) {
  useSheet(componentsCss);
  useSheet(aftersaleCss);
  const Screen = screens[screen];
  return <Screen />;
}
