"""Labelled sentences written for this repository (fictional companies, our own words), kept apart
from every set the claim rules were tuned on, to check that the rules hold on text they have not seen.

Label 1: an environmental claim a verifier could check (something done, a figure with a unit, a
dated commitment, a certification, a property of the company's own products or sites). Label 0:
aspiration, definition, industry or policy context, navigation, a question, praise of staff.
"""

from __future__ import annotations

CLAIMS = (
    "Halvorsen Foods cut the water used per tonne of product at its Bergen dairy by 18% "
    "between 2021 and 2024.",
    "All of our distribution centres in Portugal have run on certified renewable "
    "electricity since January 2023.",
    "Marlow Textiles replaced the coal boilers at its dyeing plant with a biomass system last year.",
    "We have committed to reducing absolute Scope 1 and 2 emissions by 42% by 2030 from a 2020 base year.",
    "Our new headquarters in Lyon was awarded LEED Platinum certification in 2024.",
    "The Group diverted 96% of its construction waste from landfill during the reporting period.",
    "Since 2022, every bottle we sell in the UK has been made from 100% recycled plastic.",
    "Kestrel Logistics added 140 battery-electric vans to its urban delivery fleet in 2023.",
    "Our paints are now free of volatile organic compounds across the entire consumer range.",
    "We restored 320 hectares of peatland on land we own in the Scottish Highlands.",
    "Orrin Chemicals' three European sites are certified to ISO 14001.",
    "By 2027 we will phase out single-use plastic packaging from all our own-brand products.",
    "In 2024 the company installed rooftop solar panels at eleven of its warehouses.",
    "Greenhouse gas emissions from our operations fell to 58,000 tonnes of CO2e, "
    "down 12% on the previous year.",
    "Tallis Bank stopped financing new thermal coal mines in 2021.",
    "We switched our company car policy so that only electric or plug-in hybrid models can be ordered.",
    "Our Vantaa bakery now sends all of its food waste to a local anaerobic "
    "digestion plant that produces biogas.",
    "The Board approved a target to reach net zero across our value chain by 2045, validated by the "
    "Science Based Targets initiative.",
    "Brightwell Homes fits heat pumps rather than gas boilers in every house it has built since 2023.",
    "We planted 45,000 native trees along the river corridors next to our quarries in 2023.",
)

NON_CLAIMS = (
    "Climate change is one of the defining challenges of our time.",
    "We believe that a healthy planet is the foundation of a prosperous society.",
    "Biodiversity refers to the variety of living organisms in a given ecosystem.",
    "Global demand for lithium is expected to grow rapidly as electric vehicles become more common.",
    "Sustainability is at the heart of everything we do at Halvorsen.",
    "Governments around the world are introducing stricter rules on packaging waste.",
    "Scope 3 emissions are indirect emissions that occur in a company's value chain.",
    "Our ambition is to be a force for good for people and the planet.",
    "This section describes how we manage environmental risks across our business.",
    "Further details on our emissions methodology can be found in the appendix.",
    "Renewable energy can help companies reduce their exposure to volatile fuel prices.",
    "Many of the solutions needed to reach net zero are not yet available at commercial scale.",
    "We are on a journey and recognise that there is still much more to do.",
    "Customers increasingly expect the brands they buy from to act responsibly.",
    "How can we reduce the footprint of our products further?",
    "The cement industry accounts for around 8% of global carbon dioxide emissions.",
    "Protecting the environment is a shared responsibility of business, government and citizens.",
    "We want to inspire our employees to make greener choices in their daily lives.",
    "Carbon offsets are credits that represent the reduction or removal of one tonne of carbon dioxide.",
    "Our people are our greatest asset and we are proud of their passion.",
)

#: (sentence, label) in one list.
LABELLED = tuple((text, 1) for text in CLAIMS) + tuple((text, 0) for text in NON_CLAIMS)

#: A second check set, written before the rules were revised for generalisation (issue 29) and
#: never used to tune them: the rules were changed with these sentences unread by them, and only
#: their figures were looked at afterwards. Kept apart from `LABELLED`, which earlier rule changes
#: had already been measured on.
FRESH_CLAIMS = (
    "Emissions intensity at the Corvo cement works dropped to 0.58 tonnes of CO2 per tonne of "
    "clinker last year.",
    "Nearly two thirds of the timber we buy now comes from FSC-certified forests.",
    "Fenwick Rail has electrified the remaining diesel shunting locomotives at its two depots.",
    "Rainwater harvesting at our Pune campus now meets about a third of its non-drinking water needs.",
    "We no longer use palm oil in any of our biscuit recipes.",
    "Since the retrofit, the office tower consumes 27% less energy than it did in 2019.",
    "Our aim is to halve the food waste from our restaurants by the end of 2030.",
    "The Aldmoor wind farm, which we commissioned in March, supplies enough power for around 40,000 homes.",
    "Packaging for the Lumen shampoo line is now fully recyclable in household collections.",
    "In 2023 we joined RE100 and committed to sourcing only renewable electricity by 2035.",
    "Trellis Insurance has excluded oil sands projects from its underwriting since 2020.",
    "The refinery's sulphur dioxide emissions were below permitted limits in every month of the year.",
    "Our cold-chain trucks have been fitted with low-emission refrigeration units running on natural "
    "refrigerants.",
    "Sewage sludge from our treatment works is dried and used as fertiliser by local farmers.",
    "We are working towards zero waste to landfill at all manufacturing sites by 2028.",
    "Pellham Mining rehabilitated 85 hectares of former open-pit land during the year.",
    "Our latest range of laptops uses 30% post-consumer recycled plastic in the casing.",
    "The carbon footprint of our flagship yoghurt has been independently verified by the Carbon Trust.",
    "We operate a take-back scheme in which customers return worn shoes for repair or recycling.",
    "Compared with the previous model, the new engine burns 9% less fuel per kilometre.",
    "All new stores opened from 2025 onward will be built to BREEAM Excellent standard.",
    "The company reduced its freshwater withdrawals in water-stressed regions by 1.2 million cubic metres.",
    "Our procurement policy requires every cocoa supplier to prove that its farms are deforestation-free.",
    "Emissions from business travel rose 15% as flights returned to pre-pandemic levels.",
)

FRESH_NON_CLAIMS = (
    "Air pollution is responsible for millions of premature deaths each year.",
    "The transition to a low-carbon economy brings both risks and opportunities.",
    "Net zero means balancing the greenhouse gases put into the atmosphere with those taken out.",
    "Investors are paying closer attention to how companies manage climate risk.",
    "Revenue grew 6% to €2.3 billion, driven by strong demand in North America.",
    "We employed 12,400 people at the end of the year, 3% more than a year earlier.",
    "Our teams work hard every day to deliver great service to our customers.",
    "Water scarcity is expected to affect half of the world's population by 2050.",
    "The following chart shows our energy consumption by source over the past five years.",
    "Environmental, social and governance factors are increasingly important to our stakeholders.",
    "Extreme weather events could disrupt our supply chain and raise costs.",
    "The EU Taxonomy sets out criteria for environmentally sustainable economic activities.",
    "Electric vehicles still account for a small share of new car sales in most markets.",
    "What does a truly circular business model look like?",
    "Our Chief Executive joined the company in 2019 after a career in consumer goods.",
    "Plastic pollution in the oceans threatens marine life and fisheries.",
    "In this chapter we explain how we identified our most material topics.",
    "Heat pumps transfer heat from the air or ground and can be several times more efficient than "
    "gas boilers.",
    "Whether hydrogen will play a role in heavy transport remains uncertain.",
    "Dividends per share increased to 48 pence, reflecting our confidence in the outlook.",
    "Agriculture uses around 70% of the world's freshwater withdrawals.",
    "Environmental regulations differ widely between the countries in which we operate.",
    "Thank you to everyone who contributed to this year's sustainability report.",
    "Rising sea levels put coastal infrastructure around the world at risk.",
)

#: The fresh check set as (sentence, label).
FRESH_LABELLED = tuple((text, 1) for text in FRESH_CLAIMS) + tuple((text, 0) for text in FRESH_NON_CLAIMS)
