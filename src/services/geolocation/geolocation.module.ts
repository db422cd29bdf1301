import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { Address, AddressSchema } from './address.schema';
import { AddressBook } from './address-book';
import { CountryDirectory } from './country-directory';
import { Country, CountrySchema } from './country.schema';
import { GeoLocationService } from './geolocation.service';
import { SellerAddresses } from './seller-addresses';

@Module({
  imports: [
    CatalogueModule,
    MongooseModule.forFeature([
      { name: Address.name, schema: AddressSchema },
      { name: Country.name, schema: CountrySchema },
    ]),
  ],
  providers: [CountryDirectory, AddressBook, SellerAddresses, GeoLocationService],
  exports: [CountryDirectory, AddressBook, SellerAddresses],
})
export class GeolocationModule {}
