import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { CountryView } from '../../src/services/geolocation/country.view';
import { CountryDirectory } from '../../src/services/geolocation/country-directory';
import { GeolocationModule } from '../../src/services/geolocation/geolocation.module';

/** The gateway's twin: a plain route of the app answering what `getCountryByCode('NL')` answers. */
@Controller('bench/country')
export class PlainCountryController {
  constructor(private readonly countries: CountryDirectory) {}

  @Post()
  @HttpCode(200)
  netherlands(): CountryView {
    return this.countries.get('NL');
  }
}

/** Where the idle memory sits (the bench reads RSS itself, from /proc). */
@Controller('bench/memory')
export class MemoryController {
  @Get()
  usage(): NodeJS.MemoryUsage {
    return process.memoryUsage();
  }
}

@Module({ imports: [GeolocationModule], controllers: [PlainCountryController, MemoryController] })
export class ProductBenchModule {}
