"""Places and satellite imagery for the geography agent: an offline gazetteer (`gazetteer`,
`extract`), the period a claim is about (`period`) and NDVI from a STAC imagery provider
(`imagery`)."""
