"""The IFRS S1/S2 disclosure requirements as data, expanded into `Requirement`s by `registry`.

Ids follow the standards' own numbering (paragraph, then letters, roman numerals and arabic numerals
in parentheses), checked against the June 2023 texts. Titles and summaries are Sibyl's own short
paraphrases, never the official wording, which is copyrighted. Keywords are lowercase terms a report
sentence would use, so claims can be matched to the paragraph most likely to govern them.

Each section is (pillar, section name, rows); each row is (id, title, summary, keywords). Rows are in
the standards' order and every parent precedes its children.
"""

from __future__ import annotations

Row = tuple[str, str, str, tuple[str, ...]]
Section = tuple[str, str, tuple[Row, ...]]

_S2: tuple[Section, ...] = (
    (
        "governance",
        "Governance body oversight",
        (
            (
                "S2.6",
                "Climate governance",
                "Explain how climate matters are governed: who oversees climate risks and opportunities "
                "and what part management plays.",
                ("climate governance", "governance", "oversight", "board", "committee", "climate oversight"),
            ),
            (
                "S2.6(a)",
                "Oversight body or individual",
                "Name the board, board committee or person in charge of overseeing climate risks and "
                "opportunities, and describe how that oversight works.",
                (
                    "board",
                    "board of directors",
                    "committee",
                    "oversight",
                    "sustainability committee",
                    "esg committee",
                    "audit committee",
                    "risk committee",
                    "directors",
                    "supervisory board",
                ),
            ),
            (
                "S2.6(a)(i)",
                "Climate duties in mandates",
                "Show where climate duties are written into the oversight body's charter, terms of "
                "reference, role profiles or related policies.",
                ("terms of reference", "charter", "mandate", "board responsibilities", "role description"),
            ),
            (
                "S2.6(a)(ii)",
                "Oversight skills and competencies",
                "Explain how the oversight body checks that it has, or will build, the expertise needed "
                "to steer the climate strategy.",
                (
                    "skills",
                    "competencies",
                    "expertise",
                    "board training",
                    "climate expertise",
                    "skills matrix",
                ),
            ),
            (
                "S2.6(a)(iii)",
                "Briefings to the oversight body",
                "Describe the channels through which the oversight body hears about climate matters and "
                "how frequently.",
                ("briefed", "briefing", "reports to the board", "updates", "quarterly", "times a year"),
            ),
            (
                "S2.6(a)(iv)",
                "Climate in board decisions",
                "Explain how the oversight body weighs climate factors when reviewing strategy, large "
                "deals and risk policies, including trade-offs it considered.",
                (
                    "strategy oversight",
                    "major transactions",
                    "trade-offs",
                    "capital allocation",
                    "acquisitions",
                ),
            ),
            (
                "S2.6(a)(v)",
                "Oversight of targets and pay links",
                "Describe how the oversight body supervises climate target setting and tracks progress, "
                "and whether related performance measures feed into pay policies.",
                ("target oversight", "progress monitoring", "remuneration policy", "incentives", "kpi"),
            ),
        ),
    ),
    (
        "governance",
        "Management's role",
        (
            (
                "S2.6(b)",
                "Management's role",
                "Describe the part management plays in the processes and controls used to watch over "
                "and handle climate matters.",
                ("management", "executive committee", "management committee", "ceo", "cfo", "executive"),
            ),
            (
                "S2.6(b)(i)",
                "Delegation to management",
                "Say whether climate duties sit with a named executive role or management committee and "
                "how that role is supervised.",
                ("delegated", "chief sustainability officer", "cso", "management committee", "reports to"),
            ),
            (
                "S2.6(b)(ii)",
                "Management controls and procedures",
                "State whether management relies on controls and procedures for climate oversight and how "
                "these tie in with other internal functions.",
                ("internal controls", "controls and procedures", "internal audit", "integrated with"),
            ),
        ),
    ),
    (
        "strategy",
        "Strategy overview",
        (
            (
                "S2.9",
                "Climate strategy overview",
                "Give users a picture of the company's strategy for handling climate risks and "
                "opportunities, covering the topics of paragraphs 10 to 22.",
                ("climate strategy", "strategy", "climate risks", "climate opportunities"),
            ),
            (
                "S2.9(a)",
                "Risks and opportunities",
                "Cover which climate risks and opportunities could plausibly affect the company's prospects.",
                ("climate risks", "climate opportunities", "risks and opportunities"),
            ),
            (
                "S2.9(b)",
                "Effects on business model",
                "Cover the present and expected impact of climate matters on the business model and value "
                "chain.",
                ("business model", "value chain"),
            ),
            (
                "S2.9(c)",
                "Effects on strategy",
                "Cover how climate matters shape strategy and decisions, including any transition plan.",
                ("strategy", "decision-making", "transition plan"),
            ),
            (
                "S2.9(d)",
                "Financial effects",
                "Cover the financial consequences of climate matters, now and expected, and how they "
                "enter financial planning.",
                ("financial effects", "financial impact", "financial planning"),
            ),
            (
                "S2.9(e)",
                "Climate resilience",
                "Cover how well the strategy and business model can withstand climate-related change and "
                "uncertainty.",
                ("resilience", "climate resilience"),
            ),
        ),
    ),
    (
        "strategy",
        "Climate-related risks and opportunities",
        (
            (
                "S2.10",
                "Climate risks and opportunities",
                "Identify the climate risks and opportunities the company faces and, for each, its type "
                "and timing.",
                ("climate risks", "climate opportunities", "risk identification", "climate-related risks"),
            ),
            (
                "S2.10(a)",
                "Description of risks and opportunities",
                "Describe each climate risk and opportunity that could plausibly affect the company's "
                "prospects.",
                ("climate risk", "climate opportunity", "risks", "opportunities"),
            ),
            (
                "S2.10(b)",
                "Physical or transition risk",
                "For every climate risk identified, state whether it is a physical risk or a transition "
                "risk.",
                (
                    "physical risk",
                    "transition risk",
                    "acute",
                    "chronic",
                    "policy risk",
                    "market risk",
                    "reputational risk",
                    "technology risk",
                ),
            ),
            (
                "S2.10(c)",
                "Timing of effects",
                "For each climate risk and opportunity, say whether its effects are expected in the short, "
                "medium or long term.",
                ("short term", "medium term", "long term", "time horizon"),
            ),
            (
                "S2.10(d)",
                "Defining time horizons",
                "Explain how short, medium and long term are defined and how those periods match the "
                "horizons used for strategic planning.",
                ("time horizons", "short-term", "medium-term", "long-term", "planning horizon"),
            ),
        ),
    ),
    (
        "strategy",
        "Business model and value chain",
        (
            (
                "S2.13",
                "Business model and value chain effects",
                "Explain how climate risks and opportunities affect, and are expected to affect, the "
                "business model and value chain.",
                ("business model", "value chain", "supply chain", "upstream", "downstream"),
            ),
            (
                "S2.13(a)",
                "Current and expected effects",
                "Describe the present and anticipated impact of climate matters on the business model and "
                "value chain.",
                ("business model", "value chain", "impact on operations"),
            ),
            (
                "S2.13(b)",
                "Where exposure is concentrated",
                "Point out where in the business model and value chain climate exposure clusters, such as "
                "regions, sites or kinds of asset.",
                (
                    "concentration",
                    "geographical",
                    "regions",
                    "facilities",
                    "sites",
                    "asset types",
                    "hotspots",
                ),
            ),
        ),
    ),
    (
        "strategy",
        "Strategy and decision-making",
        (
            (
                "S2.14",
                "Strategy and decision-making",
                "Explain how climate risks and opportunities influence strategy and decisions, including "
                "the transition plan and how the response is funded.",
                ("strategy", "decision-making", "transition plan", "decarbonisation strategy"),
            ),
            (
                "S2.14(a)",
                "Strategic response",
                "Describe how the company has reacted and will react to climate matters in its strategy, "
                "including how it intends to hit voluntary and mandatory climate targets.",
                ("strategic response", "climate strategy", "decarbonisation", "decarbonization"),
            ),
            (
                "S2.14(a)(i)",
                "Business model changes",
                "Describe current and planned changes to the business model and resource allocation for "
                "climate reasons, such as closing or repurposing carbon-heavy operations, shifts in capex "
                "or R&D, acquisitions and disposals.",
                (
                    "business model change",
                    "resource allocation",
                    "decommission",
                    "phase out",
                    "coal exit",
                    "divestment",
                    "acquisition",
                    "research and development",
                    "r&d",
                ),
            ),
            (
                "S2.14(a)(ii)",
                "Direct mitigation and adaptation",
                "Describe the company's own mitigation and adaptation measures, for example new processes "
                "or equipment, moving facilities, workforce changes or redesigned products.",
                (
                    "mitigation",
                    "adaptation",
                    "energy efficiency",
                    "electrification",
                    "fuel switching",
                    "renewable",
                    "renewables",
                    "renewable energy",
                    "solar",
                    "wind",
                    "heat pumps",
                    "relocation",
                ),
            ),
            (
                "S2.14(a)(iii)",
                "Indirect mitigation and adaptation",
                "Describe mitigation and adaptation pursued through others, such as work with customers "
                "and suppliers.",
                ("supplier engagement", "customer engagement", "suppliers", "collaboration", "partnership"),
            ),
            (
                "S2.14(a)(iv)",
                "Transition plan",
                "Describe any climate transition plan, with the key assumptions behind it and the "
                "dependencies it relies on.",
                (
                    "transition plan",
                    "climate transition plan",
                    "net zero plan",
                    "decarbonisation plan",
                    "decarbonization plan",
                    "decarbonisation pathway",
                    "roadmap",
                    "key assumptions",
                    "dependencies",
                ),
            ),
            (
                "S2.14(a)(v)",
                "Plans to meet climate targets",
                "Explain how the company intends to achieve its climate targets, including any emissions "
                "targets.",
                (
                    "achieve targets",
                    "reduction levers",
                    "decarbonisation levers",
                    "abatement",
                    "emission reduction",
                ),
            ),
            (
                "S2.14(b)",
                "Resourcing the response",
                "Explain how the activities in the strategic response are, and will be, resourced.",
                ("resourcing", "funding", "budget", "investment", "financing the transition"),
            ),
            (
                "S2.14(c)",
                "Progress on earlier plans",
                "Give quantitative and qualitative updates on how plans set out in prior periods are "
                "advancing.",
                ("progress", "progress update", "achieved", "on track", "delivered"),
            ),
        ),
    ),
    (
        "strategy",
        "Financial effects",
        (
            (
                "S2.15",
                "Financial effects of climate",
                "Help users see how climate matters affect the company's financial position, performance "
                "and cash flows now and over time.",
                (
                    "financial effects",
                    "financial impact",
                    "financial position",
                    "cash flows",
                    "financial performance",
                ),
            ),
            (
                "S2.15(a)",
                "Current financial effects",
                "Cover the effects of climate matters on the financial statements for this reporting period.",
                ("current financial effects", "impact on results", "financial statements"),
            ),
            (
                "S2.15(b)",
                "Anticipated financial effects",
                "Cover the expected financial effects in future periods and how climate matters are built "
                "into financial planning.",
                (
                    "anticipated financial effects",
                    "future financial impact",
                    "financial planning",
                    "forecast",
                ),
            ),
            (
                "S2.16",
                "Quantified financial effects",
                "Give figures and narrative on climate-related financial effects, both those already felt "
                "and those expected.",
                ("financial effects", "quantified", "million", "cost", "impact"),
            ),
            (
                "S2.16(a)",
                "Effects in the period",
                "Explain how climate matters have already affected the balance sheet, results and cash "
                "flows this period.",
                ("impact on results", "costs incurred", "revenue impact", "damage costs", "insurance costs"),
            ),
            (
                "S2.16(b)",
                "Risk of material adjustment",
                "Identify climate matters that could well cause a material change to asset or liability "
                "carrying amounts within the next year.",
                ("carrying amount", "impairment", "stranded assets", "write-down", "useful life"),
            ),
            (
                "S2.16(c)",
                "Expected change in financial position",
                "Explain how the balance sheet is expected to evolve under the climate strategy, "
                "considering investment and funding plans.",
                ("financial position", "balance sheet", "future investments"),
            ),
            (
                "S2.16(c)(i)",
                "Investment and disposal plans",
                "Cover planned capital spending, acquisitions, disposals, joint ventures, new business "
                "lines and asset retirements, including uncommitted plans.",
                (
                    "capex",
                    "capital expenditure",
                    "investment plan",
                    "divestment",
                    "joint venture",
                    "asset retirement",
                ),
            ),
            (
                "S2.16(c)(ii)",
                "Funding sources",
                "Cover where the money to carry out the strategy is expected to come from.",
                ("funding", "green bond", "sustainability-linked loan", "financing", "green finance"),
            ),
            (
                "S2.16(d)",
                "Expected performance and cash flows",
                "Explain how revenue, costs and cash flows are expected to move under the climate "
                "strategy, e.g. low-carbon product sales, damage costs or adaptation spending.",
                ("revenue", "low-carbon products", "green revenue", "operating costs", "adaptation costs"),
            ),
            (
                "S2.21",
                "When effects are not quantified",
                "If figures on financial effects are left out under the permitted reliefs, explain why and "
                "give qualitative and combined information instead.",
                ("not quantified", "unable to quantify", "qualitative information"),
            ),
            (
                "S2.21(a)",
                "Reason for omitting figures",
                "State why quantitative financial-effect information was not given.",
                ("not quantified", "not separately identifiable", "measurement uncertainty"),
            ),
            (
                "S2.21(b)",
                "Qualitative financial effects",
                "Describe the financial effects in words, naming the line items, totals and subtotals in "
                "the financial statements that are or could be hit.",
                ("line items", "qualitative", "financial statement line items"),
            ),
            (
                "S2.21(c)",
                "Combined financial effects",
                "Give figures for the joint effect of the risk or opportunity together with other factors, "
                "unless such figures would not help users.",
                ("combined effects", "aggregate impact"),
            ),
        ),
    ),
    (
        "strategy",
        "Climate resilience",
        (
            (
                "S2.22",
                "Climate resilience and scenario analysis",
                "Assess how resilient the strategy and business model are to climate change using scenario "
                "analysis suited to the company's circumstances, and report results and method.",
                ("climate resilience", "resilience", "scenario analysis", "scenarios", "stress test"),
            ),
            (
                "S2.22(a)",
                "Resilience assessment",
                "Report the company's view of its climate resilience at the reporting date.",
                ("resilience assessment", "resilient", "climate resilience"),
            ),
            (
                "S2.22(a)(i)",
                "Implications for strategy",
                "Explain what the resilience findings mean for strategy and the business model, including "
                "how the company would react to effects the scenarios reveal.",
                ("implications", "scenario results", "strategic implications"),
            ),
            (
                "S2.22(a)(ii)",
                "Key areas of uncertainty",
                "Identify the main uncertainties taken into account in the resilience assessment.",
                ("uncertainty", "uncertainties", "key uncertainties"),
            ),
            (
                "S2.22(a)(iii)",
                "Capacity to adapt",
                "Explain how far the company could adjust its strategy and operating model as the climate "
                "changes, across time horizons.",
                ("adaptive capacity", "flexibility", "adapt", "adjust strategy"),
            ),
            (
                "S2.22(a)(iii)(1)",
                "Financial resources and flexibility",
                "Cover whether existing financial resources are available and flexible enough to respond "
                "to scenario findings.",
                ("financial flexibility", "liquidity", "financial resources", "headroom"),
            ),
            (
                "S2.22(a)(iii)(2)",
                "Flexibility of existing assets",
                "Cover whether existing assets could be moved, converted, upgraded or shut down.",
                ("repurpose", "redeploy", "upgrade", "decommission", "asset flexibility"),
            ),
            (
                "S2.22(a)(iii)(3)",
                "Resilience investments",
                "Cover the effect of current and planned spending on mitigation, adaptation and climate "
                "opportunities.",
                ("adaptation investment", "mitigation investment", "resilience investment"),
            ),
            (
                "S2.22(b)",
                "How the scenario analysis was done",
                "Describe how and when the climate scenario analysis was performed.",
                ("scenario analysis", "methodology", "scenarios"),
            ),
            (
                "S2.22(b)(i)",
                "Scenario inputs",
                "Describe the inputs used in the scenario analysis.",
                ("inputs", "scenario inputs", "data"),
            ),
            (
                "S2.22(b)(i)(1)",
                "Scenarios used and their sources",
                "Name the scenarios used and where they come from.",
                (
                    "iea",
                    "ngfs",
                    "ipcc",
                    "ssp",
                    "rcp",
                    "net zero emissions by 2050",
                    "nze",
                    "steps",
                    "scenario",
                ),
            ),
            (
                "S2.22(b)(i)(2)",
                "Range of scenarios",
                "Say whether a varied set of scenarios was analysed.",
                ("range of scenarios", "multiple scenarios", "diverse scenarios"),
            ),
            (
                "S2.22(b)(i)(3)",
                "Transition or physical scenarios",
                "Say whether the scenarios relate to transition risks or to physical risks.",
                ("transition scenario", "physical scenario", "physical risk", "transition risk"),
            ),
            (
                "S2.22(b)(i)(4)",
                "Paris-aligned scenario",
                "Say whether one of the scenarios is consistent with the most recent international climate "
                "agreement.",
                ("1.5°c", "1.5c", "paris agreement", "paris-aligned", "well below 2°c", "2°c"),
            ),
            (
                "S2.22(b)(i)(5)",
                "Why the scenarios are relevant",
                "Explain why the chosen scenarios are relevant for testing the company's resilience.",
                ("scenario selection", "rationale", "relevance"),
            ),
            (
                "S2.22(b)(i)(6)",
                "Scenario time horizons",
                "State the time horizons used in the analysis.",
                ("time horizon", "horizon", "time horizons"),
            ),
            (
                "S2.22(b)(i)(7)",
                "Operational scope of the analysis",
                "State which operations, locations and business units the analysis covered.",
                ("scope of analysis", "locations", "business units", "assets covered"),
            ),
            (
                "S2.22(b)(ii)",
                "Key scenario assumptions",
                "Describe the main assumptions made in the analysis.",
                ("assumptions", "key assumptions"),
            ),
            (
                "S2.22(b)(ii)(1)",
                "Policy assumptions",
                "Cover assumptions on climate policy where the company operates.",
                ("carbon price", "climate policy", "regulation", "policy assumptions", "carbon pricing"),
            ),
            (
                "S2.22(b)(ii)(2)",
                "Macroeconomic assumptions",
                "Cover assumptions on macroeconomic developments.",
                ("gdp", "macroeconomic", "economic growth", "inflation"),
            ),
            (
                "S2.22(b)(ii)(3)",
                "Local and regional variables",
                "Cover national or regional assumptions such as regional weather, population, land use, "
                "infrastructure or resource availability.",
                ("weather patterns", "demographics", "land use", "infrastructure", "regional"),
            ),
            (
                "S2.22(b)(ii)(4)",
                "Energy use and mix assumptions",
                "Cover assumptions on energy demand and the energy mix.",
                ("energy mix", "energy demand", "energy usage", "energy prices"),
            ),
            (
                "S2.22(b)(ii)(5)",
                "Technology assumptions",
                "Cover assumptions on how technology will develop.",
                ("technology", "carbon capture", "hydrogen", "technological change"),
            ),
            (
                "S2.22(b)(iii)",
                "Timing of the analysis",
                "State the reporting period in which the scenario analysis was performed.",
                ("when performed", "last performed", "updated analysis"),
            ),
        ),
    ),
    (
        "risk_management",
        "Risk management processes",
        (
            (
                "S2.25",
                "Climate risk management",
                "Describe how climate risks and opportunities are found, assessed, ranked and tracked, and "
                "how this fits into enterprise risk management.",
                (
                    "risk management",
                    "enterprise risk management",
                    "erm",
                    "risk process",
                    "risk register",
                    "risk assessment",
                ),
            ),
            (
                "S2.25(a)",
                "Risk processes and policies",
                "Describe the processes and policies for finding, assessing, ranking and tracking climate "
                "risks.",
                ("risk identification", "risk assessment", "risk policy", "risk process"),
            ),
            (
                "S2.25(a)(i)",
                "Inputs and parameters",
                "Cover the inputs and parameters used, such as data sources and which operations are in "
                "scope.",
                ("data sources", "inputs", "parameters"),
            ),
            (
                "S2.25(a)(ii)",
                "Scenario analysis in risk identification",
                "Say whether and how scenario analysis helps to identify climate risks.",
                ("scenario analysis", "risk identification"),
            ),
            (
                "S2.25(a)(iii)",
                "Assessing likelihood and magnitude",
                "Explain how the nature, likelihood and size of risk effects are judged, e.g. through "
                "qualitative factors or numeric thresholds.",
                ("likelihood", "magnitude", "heat map", "risk matrix", "threshold"),
            ),
            (
                "S2.25(a)(iv)",
                "Prioritising climate risks",
                "Say whether and how climate risks are ranked against other kinds of risk.",
                ("prioritisation", "prioritization", "risk ranking", "principal risks"),
            ),
            (
                "S2.25(a)(v)",
                "Monitoring climate risks",
                "Explain how climate risks are kept under watch.",
                ("monitoring", "key risk indicators", "kri", "risk monitoring"),
            ),
            (
                "S2.25(a)(vi)",
                "Changes to risk processes",
                "Say whether and how the risk processes changed since the prior period.",
                ("process changes", "updated process", "compared to last year"),
            ),
            (
                "S2.25(b)",
                "Processes for opportunities",
                "Describe how climate opportunities are found, assessed, ranked and tracked, including any "
                "use of scenario analysis.",
                ("opportunity identification", "opportunities", "scenario analysis"),
            ),
            (
                "S2.25(c)",
                "Integration into overall risk management",
                "Explain how far, and in what way, the climate risk and opportunity processes are built "
                "into the company's overall risk management.",
                ("integrated", "enterprise risk management", "erm", "group risk"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Metrics and targets overview",
        (
            (
                "S2.28",
                "Climate metrics and targets",
                "Report cross-industry and industry-specific climate metrics plus climate targets, "
                "including the measures used to follow progress.",
                ("metrics", "targets", "kpis", "climate metrics"),
            ),
            (
                "S2.28(a)",
                "Cross-industry metrics",
                "Report information for the metric categories that apply to all industries (paragraphs 29 "
                "to 31).",
                ("cross-industry metrics", "climate metrics"),
            ),
            (
                "S2.28(b)",
                "Industry-based metrics",
                "Report metrics tied to the company's industry, business model or activities (paragraph 32).",
                ("industry metrics", "sasb", "sector metrics"),
            ),
            (
                "S2.28(c)",
                "Climate targets",
                "Report climate targets, whether self-set or legally required, and the metrics leadership "
                "uses to follow them.",
                ("targets", "climate targets", "reduction target"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Cross-industry metrics",
        (
            (
                "S2.29",
                "Cross-industry metric categories",
                "Report the climate metrics every company must give regardless of sector: emissions, "
                "exposure to transition and physical risk, opportunities, capital deployed, internal "
                "carbon prices and pay.",
                ("climate metrics", "cross-industry metrics", "kpis"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Greenhouse gas emissions",
        (
            (
                "S2.29(a)",
                "Greenhouse gas emissions",
                "Report greenhouse gas emissions, how they are measured, and supporting breakdowns for "
                "Scope 2 and Scope 3.",
                (
                    "ghg",
                    "greenhouse gas",
                    "emissions",
                    "carbon footprint",
                    "co2e",
                    "tco2e",
                    "carbon emissions",
                    "ghg inventory",
                    "co2",
                ),
            ),
            (
                "S2.29(a)(i)",
                "Absolute gross emissions by scope",
                "Report total gross greenhouse gas emissions for the period in tonnes of CO2 equivalent, "
                "broken down into Scopes 1, 2 and 3.",
                (
                    "scope 1",
                    "scope 2",
                    "scope 3",
                    "scope 1, 2 and 3",
                    "scopes 1, 2 and 3",
                    "gross emissions",
                    "absolute emissions",
                    "total emissions",
                    "ghg emissions",
                    "greenhouse gas emissions",
                    "tco2e",
                    "co2e",
                    "tonnes of co2",
                ),
            ),
            (
                "S2.29(a)(i)(1)",
                "Scope 1 emissions",
                "Report direct emissions from sources the company owns or controls.",
                (
                    "scope 1",
                    "scope 1 emissions",
                    "direct emissions",
                    "direct ghg emissions",
                    "fugitive emissions",
                    "process emissions",
                    "stationary combustion",
                    "company vehicles",
                ),
            ),
            (
                "S2.29(a)(i)(2)",
                "Scope 2 emissions",
                "Report indirect emissions from the electricity, steam, heat or cooling the company buys "
                "and uses.",
                (
                    "scope 2",
                    "scope 2 emissions",
                    "indirect emissions",
                    "purchased electricity",
                    "purchased energy",
                    "district heating",
                ),
            ),
            (
                "S2.29(a)(i)(3)",
                "Scope 3 emissions",
                "Report the remaining indirect emissions that arise across the upstream and downstream "
                "value chain.",
                (
                    "scope 3",
                    "scope 3 emissions",
                    "value chain emissions",
                    "supply chain emissions",
                    "upstream emissions",
                    "downstream emissions",
                ),
            ),
            (
                "S2.29(a)(ii)",
                "GHG Protocol measurement",
                "Measure emissions with the GHG Protocol Corporate Standard (2004) unless a regulator or "
                "the listing exchange requires another method.",
                ("ghg protocol", "greenhouse gas protocol", "corporate standard", "iso 14064"),
            ),
            (
                "S2.29(a)(iii)",
                "Emissions measurement approach",
                "Explain the approach used to measure emissions.",
                ("methodology", "measurement approach", "emission factors", "calculation", "estimated"),
            ),
            (
                "S2.29(a)(iii)(1)",
                "Method, inputs and assumptions",
                "Describe the measurement method, inputs and assumptions used.",
                (
                    "emission factors",
                    "activity data",
                    "global warming potential",
                    "gwp",
                    "operational control",
                    "financial control",
                    "equity share",
                    "consolidation approach",
                ),
            ),
            (
                "S2.29(a)(iii)(2)",
                "Reasons for the approach",
                "Explain why that method and those inputs and assumptions were chosen.",
                ("rationale", "chosen approach", "methodology choice"),
            ),
            (
                "S2.29(a)(iii)(3)",
                "Changes to the approach",
                "Describe any change to the method, inputs or assumptions during the period and why it was "
                "made.",
                ("recalculation", "restatement", "methodology change", "rebaseline"),
            ),
            (
                "S2.29(a)(iv)",
                "Scope 1 and 2 by consolidation boundary",
                "Split Scope 1 and Scope 2 emissions between the consolidated group and other investees.",
                (
                    "consolidated group",
                    "investees",
                    "associates",
                    "joint ventures",
                    "boundary",
                    "disaggregation",
                ),
            ),
            (
                "S2.29(a)(iv)(1)",
                "Consolidated accounting group",
                "Give the emissions of the parent and its consolidated subsidiaries.",
                ("consolidated group", "subsidiaries", "parent company"),
            ),
            (
                "S2.29(a)(iv)(2)",
                "Other investees",
                "Give the emissions of investees outside the consolidated group, such as associates, joint "
                "ventures and subsidiaries that are not consolidated.",
                ("associates", "joint ventures", "equity-accounted", "unconsolidated"),
            ),
            (
                "S2.29(a)(v)",
                "Location-based Scope 2 and contractual instruments",
                "Report location-based Scope 2 emissions plus any details of energy contracts users need to "
                "make sense of the Scope 2 figure.",
                (
                    "location-based",
                    "market-based",
                    "renewable electricity",
                    "renewable energy certificates",
                    "recs",
                    "guarantees of origin",
                    "ppa",
                    "power purchase agreement",
                    "green tariff",
                    "contractual instruments",
                ),
            ),
            (
                "S2.29(a)(vi)",
                "Scope 3 detail",
                "Give further detail on Scope 3 emissions: which categories are included and, for financial "
                "institutions, financed emissions.",
                ("scope 3", "scope 3 categories", "value chain"),
            ),
            (
                "S2.29(a)(vi)(1)",
                "Scope 3 categories included",
                "List which of the 15 GHG Protocol Scope 3 categories the Scope 3 figure covers.",
                (
                    "scope 3 categories",
                    "category 1",
                    "purchased goods and services",
                    "business travel",
                    "employee commuting",
                    "use of sold products",
                    "upstream transportation",
                    "capital goods",
                    "waste generated in operations",
                    "end-of-life",
                ),
            ),
            (
                "S2.29(a)(vi)(2)",
                "Financed emissions",
                "Asset managers, banks and insurers give extra information on their Category 15 "
                "(investment-related) emissions, known as financed emissions.",
                (
                    "financed emissions",
                    "category 15",
                    "pcaf",
                    "portfolio emissions",
                    "facilitated emissions",
                    "loan book",
                    "insurance-associated emissions",
                ),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Cross-industry metrics",
        (
            (
                "S2.29(b)",
                "Transition risk exposure",
                "Report the amount and share of assets or business activities exposed to climate transition "
                "risks.",
                (
                    "transition risk",
                    "carbon tax",
                    "stranded assets",
                    "assets at risk",
                    "carbon-intensive assets",
                ),
            ),
            (
                "S2.29(c)",
                "Physical risk exposure",
                "Report the amount and share of assets or business activities exposed to climate physical "
                "risks.",
                (
                    "physical risk",
                    "flood",
                    "flooding",
                    "heat stress",
                    "wildfire",
                    "drought",
                    "storm",
                    "sea level rise",
                    "extreme weather",
                ),
            ),
            (
                "S2.29(d)",
                "Climate opportunity alignment",
                "Report the amount and share of assets or business activities that line up with climate "
                "opportunities.",
                (
                    "climate opportunities",
                    "green revenue",
                    "taxonomy-aligned",
                    "eu taxonomy",
                    "low-carbon products",
                ),
            ),
            (
                "S2.29(e)",
                "Capital deployment",
                "Report capital spending, financing or investment directed at climate risks and "
                "opportunities.",
                ("capex", "capital expenditure", "green capex", "climate investment", "green financing"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Internal carbon prices",
        (
            (
                "S2.29(f)",
                "Internal carbon prices",
                "Explain any internal carbon price the company applies.",
                (
                    "internal carbon price",
                    "carbon price",
                    "shadow price",
                    "internal carbon fee",
                    "carbon pricing",
                ),
            ),
            (
                "S2.29(f)(i)",
                "Use of a carbon price in decisions",
                "Explain whether and how a carbon price is used in decisions such as investment appraisal, "
                "transfer pricing or scenario work.",
                ("shadow price", "internal carbon price", "investment decisions", "internal fee"),
            ),
            (
                "S2.29(f)(ii)",
                "Carbon price level",
                "State the price per tonne of emissions used to assess what emissions cost.",
                ("price per tonne", "per tonne", "eur/tco2e", "usd/tco2e", "carbon price"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Remuneration",
        (
            (
                "S2.29(g)",
                "Climate-linked remuneration",
                "Report how executive pay is tied to climate considerations.",
                (
                    "remuneration",
                    "executive pay",
                    "compensation",
                    "incentive",
                    "incentives",
                    "bonus",
                    "bonuses",
                    "executive bonus",
                    "executive bonuses",
                    "variable pay",
                    "ltip",
                ),
            ),
            (
                "S2.29(g)(i)",
                "Climate in executive pay",
                "Describe whether and how climate factors are built into executive remuneration.",
                (
                    "executive remuneration",
                    "executive pay",
                    "bonus",
                    "bonuses",
                    "executive bonus",
                    "executive bonuses",
                    "incentive plan",
                    "variable pay",
                    "ltip",
                ),
            ),
            (
                "S2.29(g)(ii)",
                "Share of pay linked to climate",
                "State the percentage of executive management pay recognised this period that depends on "
                "climate considerations.",
                ("percentage of remuneration", "weighting", "% of bonus", "linked to climate"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Industry-based metrics",
        (
            (
                "S2.32",
                "Industry-based metrics",
                "Report metrics specific to the company's industry, considering those in the ISSB "
                "industry-based guidance derived from SASB.",
                (
                    "industry metrics",
                    "sasb",
                    "sector-specific",
                    "energy consumption",
                    "energy use",
                    "energy intensity",
                ),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Climate-related targets",
        (
            (
                "S2.33",
                "Climate-related targets",
                "Disclose each climate target the company has set or must meet by law, including emissions "
                "targets, with its main features.",
                (
                    "target",
                    "targets",
                    "net zero",
                    "net-zero",
                    "by 2030",
                    "by 2050",
                    "reduction target",
                    "emissions target",
                    "carbon neutral",
                    "commitment",
                ),
            ),
            (
                "S2.33(a)",
                "Target metric",
                "State the metric the target is set on.",
                ("target metric", "kpi"),
            ),
            (
                "S2.33(b)",
                "Target objective",
                "State what the target aims to do, e.g. mitigation, adaptation or alignment with "
                "science-based initiatives.",
                ("science-based", "sbti", "science based targets", "mitigation", "adaptation"),
            ),
            (
                "S2.33(c)",
                "Target coverage",
                "State which part of the company the target covers, e.g. the whole group or one unit or "
                "region.",
                ("coverage", "group-wide", "business unit", "scope of target"),
            ),
            (
                "S2.33(d)",
                "Target period",
                "State the period the target runs over.",
                ("by 2030", "by 2050", "target year", "deadline"),
            ),
            (
                "S2.33(e)",
                "Base period",
                "State the base period against which progress is measured.",
                ("base year", "baseline", "base period", "compared to 2019"),
            ),
            (
                "S2.33(f)",
                "Milestones and interim targets",
                "Give any milestones or interim targets.",
                ("interim target", "milestone", "intermediate target", "by 2025"),
            ),
            (
                "S2.33(g)",
                "Absolute or intensity target",
                "For quantitative targets, say whether the target is absolute or intensity-based.",
                ("absolute target", "intensity target", "per unit", "intensity"),
            ),
            (
                "S2.33(h)",
                "Link to the international climate agreement",
                "Explain how the latest international climate agreement, and national commitments under it, "
                "shaped the target.",
                ("paris agreement", "1.5°c", "paris-aligned", "ndc", "well below 2°c"),
            ),
            (
                "S2.34",
                "Setting and reviewing targets",
                "Explain how each target is set and reviewed and how progress against it is monitored.",
                ("target setting", "target review", "monitoring progress"),
            ),
            (
                "S2.34(a)",
                "Third-party validation",
                "Say whether an external party validated the target and the method used to set it.",
                (
                    "validated",
                    "sbti",
                    "science based targets initiative",
                    "third-party validation",
                    "approved by",
                ),
            ),
            (
                "S2.34(b)",
                "Target review process",
                "Describe the process for reviewing the target.",
                ("review process", "reviewed annually"),
            ),
            (
                "S2.34(c)",
                "Progress metrics",
                "State the metrics used to track progress towards the target.",
                ("progress metrics", "tracking", "kpi"),
            ),
            (
                "S2.34(d)",
                "Target revisions",
                "Describe any changes to the target and why they were made.",
                ("revised", "revision", "updated target", "rebased", "recalculated"),
            ),
            (
                "S2.35",
                "Performance against targets",
                "Report how the company is doing against each climate target and analyse trends or shifts in "
                "that performance.",
                (
                    "progress",
                    "reduction achieved",
                    "on track",
                    "reduced by",
                    "year-on-year",
                    "compared to baseline",
                ),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Greenhouse gas emissions targets",
        (
            (
                "S2.36",
                "Greenhouse gas emissions targets",
                "For each emissions target, give further detail on gases, scopes, gross or net basis, "
                "derivation method and use of carbon credits.",
                ("emissions target", "ghg target", "net zero", "reduction target", "carbon neutral"),
            ),
            (
                "S2.36(a)",
                "Gases covered",
                "State which greenhouse gases the target covers.",
                ("gases covered", "methane", "ch4", "kyoto gases", "all seven gases"),
            ),
            (
                "S2.36(b)",
                "Scopes covered",
                "State which of Scopes 1, 2 and 3 the target covers.",
                ("scope 1 and 2", "scopes 1 and 2", "scope 1, 2 and 3", "scope 3 target", "scopes covered"),
            ),
            (
                "S2.36(c)",
                "Gross or net target",
                "State whether the target is gross or net; a net target also requires the matching gross "
                "target to be given.",
                ("gross target", "net target", "net emissions", "net zero"),
            ),
            (
                "S2.36(d)",
                "Sectoral decarbonisation approach",
                "Say if a sector-specific decarbonisation pathway (SDA) was used to derive the target.",
                ("sda", "sectoral decarbonisation approach", "sectoral decarbonization", "sector pathway"),
            ),
            (
                "S2.36(e)",
                "Planned use of carbon credits",
                "Explain how carbon credits are expected to be used to offset emissions on the way to any "
                "net target.",
                ("carbon credits", "offsets", "offsetting", "carbon offsets", "neutralisation"),
            ),
            (
                "S2.36(e)(i)",
                "Reliance on credits",
                "Explain how far meeting any net target depends on carbon credits.",
                ("reliance on offsets", "residual emissions", "offsetting"),
            ),
            (
                "S2.36(e)(ii)",
                "Verification schemes",
                "Name the third-party schemes that will verify or certify the credits.",
                ("verra", "gold standard", "vcs", "certified credits", "verification"),
            ),
            (
                "S2.36(e)(iii)",
                "Type of carbon credit",
                "Describe the credit type: nature-based or technological, and whether it reflects reduced "
                "emissions or removals.",
                ("nature-based", "removals", "avoidance", "direct air capture", "reforestation", "redd+"),
            ),
            (
                "S2.36(e)(iv)",
                "Credibility and integrity of credits",
                "Give any other information users need to judge credit quality, such as assumptions on "
                "permanence.",
                ("permanence", "integrity", "additionality", "credit quality", "credibility"),
            ),
        ),
    ),
)

_S1_FOUNDATIONS: tuple[Section, ...] = (
    (
        "general",
        "Fair presentation",
        (
            (
                "S1.15",
                "Fair presentation",
                "Beyond the specific requirements, disclosures must have the qualities of useful information "
                "and be supplemented where needed for users to grasp the effects.",
                ("fair presentation", "comparable", "additional information"),
            ),
            (
                "S1.15(a)",
                "Qualities of useful information",
                "Make the information comparable, verifiable, timely and understandable.",
                ("comparable", "verifiable", "timely", "understandable", "consistency"),
            ),
            (
                "S1.15(b)",
                "Additional information",
                "Add information beyond the specific requirements when they alone would not let users see "
                "the effects on cash flows, financing and cost of capital.",
                ("additional information", "supplementary information", "entity-specific"),
            ),
        ),
    ),
    (
        "general",
        "Materiality",
        (
            (
                "S1.17",
                "Material information",
                "Report all material information about the sustainability risks and opportunities that "
                "could plausibly affect the company's prospects.",
                (
                    "material",
                    "materiality",
                    "materiality assessment",
                    "material topics",
                    "double materiality",
                ),
            ),
        ),
    ),
    (
        "general",
        "Reporting entity",
        (
            (
                "S1.20",
                "Same reporting entity",
                "Cover the same group or company that the financial statements report on.",
                ("reporting entity", "reporting boundary", "group", "consolidated", "scope of the report"),
            ),
        ),
    ),
    (
        "general",
        "Connected information",
        (
            (
                "S1.21",
                "Connected information",
                "Present information so users can see the links between risks and opportunities and "
                "between different disclosures, including the financial statements.",
                ("connected information", "connectivity", "linkage"),
            ),
            (
                "S1.21(a)",
                "Links between items",
                "Show how the underlying items relate, such as links between different sustainability "
                "risks and opportunities.",
                ("interdependencies", "links", "connections"),
            ),
            (
                "S1.21(b)",
                "Links between disclosures",
                "Show how the disclosures themselves connect.",
                ("connections", "linkage", "cross-reference"),
            ),
            (
                "S1.21(b)(i)",
                "Within the sustainability disclosures",
                "Connect the governance, strategy, risk management and metrics disclosures with one another.",
                ("consistent", "linked disclosures"),
            ),
            (
                "S1.21(b)(ii)",
                "With other published reports",
                "Connect the sustainability disclosures with the company's other published financial "
                "reports, such as its financial statements.",
                ("annual report", "financial statements", "integrated report"),
            ),
            (
                "S1.22",
                "Identify the related financial statements",
                "Name the financial statements that the sustainability disclosures go with.",
                ("financial statements", "annual report", "accounts"),
            ),
            (
                "S1.23",
                "Consistent data and assumptions",
                "Use data and assumptions that match those in the financial statements as far as the "
                "accounting framework allows.",
                ("consistent assumptions", "consistency with financial statements", "same assumptions"),
            ),
            (
                "S1.24",
                "Presentation currency",
                "When amounts are given in money, use the financial statements' presentation currency.",
                ("presentation currency", "functional currency", "reporting currency"),
            ),
        ),
    ),
    (
        "general",
        "Core content",
        (
            (
                "S1.25",
                "Core content",
                "Cover governance, strategy, risk management as well as metrics and targets.",
                ("core content", "four pillars", "tcfd", "pillars"),
            ),
            (
                "S1.25(a)",
                "Governance content",
                "Cover how sustainability matters are overseen and managed (see paragraphs 26 to 27).",
                ("governance",),
            ),
            (
                "S1.25(b)",
                "Strategy content",
                "Cover the company's approach to managing sustainability matters (see paragraphs 28 to 42).",
                ("strategy",),
            ),
            (
                "S1.25(c)",
                "Risk management content",
                "Cover how sustainability risks and opportunities are found, assessed, ranked and tracked "
                "(see paragraphs 43 to 44).",
                ("risk management",),
            ),
            (
                "S1.25(d)",
                "Metrics and targets content",
                "Cover performance on sustainability matters, including progress on targets (see "
                "paragraphs 45 to 53).",
                ("metrics and targets", "performance"),
            ),
        ),
    ),
)

_S1_CORE: tuple[Section, ...] = (
    (
        "governance",
        "Governance body oversight",
        (
            (
                "S1.27",
                "Sustainability governance",
                "Explain how sustainability matters are governed: who oversees the risks and opportunities "
                "and what part management plays.",
                ("sustainability governance", "esg governance", "governance", "oversight", "board"),
            ),
            (
                "S1.27(a)",
                "Oversight body or individual",
                "Name the board, board committee or person in charge of overseeing sustainability risks and "
                "opportunities, and describe how that oversight works.",
                ("board", "board of directors", "sustainability committee", "esg committee", "committee"),
            ),
            (
                "S1.27(a)(i)",
                "Sustainability duties in mandates",
                "Show where sustainability duties are written into the oversight body's charter, terms of "
                "reference, role profiles or related policies.",
                ("terms of reference", "charter", "mandate", "role description"),
            ),
            (
                "S1.27(a)(ii)",
                "Oversight skills and competencies",
                "Explain how the oversight body checks that it has, or will build, the expertise needed to "
                "steer the sustainability strategy.",
                ("skills", "competencies", "expertise", "board training", "skills matrix"),
            ),
            (
                "S1.27(a)(iii)",
                "Briefings to the oversight body",
                "Describe the channels through which the oversight body hears about sustainability matters "
                "and how frequently.",
                ("briefed", "briefing", "reports to the board", "updates", "quarterly"),
            ),
            (
                "S1.27(a)(iv)",
                "Sustainability in board decisions",
                "Explain how the oversight body weighs sustainability factors when reviewing strategy, large "
                "deals and risk policies, including trade-offs it considered.",
                ("strategy oversight", "major transactions", "trade-offs", "capital allocation"),
            ),
            (
                "S1.27(a)(v)",
                "Oversight of targets and pay links",
                "Describe how the oversight body supervises sustainability target setting and tracks "
                "progress, and whether related performance measures feed into pay policies.",
                ("target oversight", "remuneration policy", "incentives", "esg kpis in pay"),
            ),
        ),
    ),
    (
        "governance",
        "Management's role",
        (
            (
                "S1.27(b)",
                "Management's role",
                "Describe the part management plays in the processes and controls used to watch over and "
                "handle sustainability matters.",
                ("management", "executive committee", "management committee", "executive"),
            ),
            (
                "S1.27(b)(i)",
                "Delegation to management",
                "Say whether sustainability duties sit with a named executive role or management committee "
                "and how that role is supervised.",
                (
                    "delegated",
                    "chief sustainability officer",
                    "head of sustainability",
                    "esg steering committee",
                ),
            ),
            (
                "S1.27(b)(ii)",
                "Management controls and procedures",
                "State whether management relies on controls and procedures for sustainability oversight and "
                "how these tie in with other internal functions.",
                ("internal controls", "controls and procedures", "internal audit"),
            ),
        ),
    ),
    (
        "strategy",
        "Strategy overview",
        (
            (
                "S1.29",
                "Sustainability strategy overview",
                "Give users a picture of the company's strategy for managing sustainability risks and "
                "opportunities, covering the topics of paragraphs 30 to 42.",
                ("sustainability strategy", "esg strategy", "strategy"),
            ),
            (
                "S1.29(a)",
                "Risks and opportunities",
                "Cover the sustainability risks and opportunities that could plausibly affect prospects.",
                ("sustainability risks", "risks and opportunities"),
            ),
            (
                "S1.29(b)",
                "Effects on business model",
                "Cover present and expected effects on the business model and value chain.",
                ("business model", "value chain"),
            ),
            (
                "S1.29(c)",
                "Effects on strategy",
                "Cover how sustainability matters shape strategy and decisions.",
                ("strategy", "decision-making"),
            ),
            (
                "S1.29(d)",
                "Financial effects",
                "Cover the financial consequences, now and expected, and how sustainability matters enter "
                "financial planning.",
                ("financial effects", "financial planning"),
            ),
            (
                "S1.29(e)",
                "Resilience",
                "Cover how well the strategy and business model can withstand sustainability risks.",
                ("resilience",),
            ),
        ),
    ),
    (
        "strategy",
        "Sustainability-related risks and opportunities",
        (
            (
                "S1.30",
                "Sustainability risks and opportunities",
                "Identify the sustainability risks and opportunities the company faces and when their "
                "effects are expected.",
                ("sustainability risks", "esg risks", "opportunities", "material topics"),
            ),
            (
                "S1.30(a)",
                "Description of risks and opportunities",
                "Describe each sustainability risk and opportunity that could plausibly affect the company's "
                "prospects.",
                ("sustainability risk", "water risk", "biodiversity risk", "human capital", "opportunity"),
            ),
            (
                "S1.30(b)",
                "Timing of effects",
                "For each, say whether its effects are expected in the short, medium or long term.",
                ("short term", "medium term", "long term"),
            ),
            (
                "S1.30(c)",
                "Defining time horizons",
                "Explain how short, medium and long term are defined and tied to the horizons used for "
                "strategic planning.",
                ("time horizons", "planning horizon"),
            ),
        ),
    ),
    (
        "strategy",
        "Business model and value chain",
        (
            (
                "S1.32",
                "Business model and value chain effects",
                "Explain how sustainability risks and opportunities affect the business model and value "
                "chain, now and in future.",
                ("business model", "value chain", "supply chain"),
            ),
            (
                "S1.32(a)",
                "Current and expected effects",
                "Describe the present and anticipated impact on the business model and value chain.",
                ("business model", "value chain"),
            ),
            (
                "S1.32(b)",
                "Where exposure is concentrated",
                "Point out where in the business model and value chain the exposure clusters, such as "
                "regions, sites or kinds of asset.",
                ("concentration", "geographical", "sites", "water-stressed regions"),
            ),
        ),
    ),
    (
        "strategy",
        "Strategy and decision-making",
        (
            (
                "S1.33",
                "Strategy and decision-making",
                "Explain how sustainability risks and opportunities influence strategy and decisions.",
                ("strategy", "decision-making", "sustainability strategy"),
            ),
            (
                "S1.33(a)",
                "Strategic response",
                "Describe how the company has reacted and will react to sustainability matters in its "
                "strategy and decisions.",
                ("response", "initiatives", "programme", "action plan"),
            ),
            (
                "S1.33(b)",
                "Progress on earlier plans",
                "Give quantitative and qualitative updates on how plans set out in prior periods are "
                "advancing.",
                ("progress", "achieved", "on track"),
            ),
            (
                "S1.33(c)",
                "Trade-offs",
                "Describe trade-offs between sustainability risks and opportunities that were weighed, e.g. "
                "environmental harm versus local jobs when siting a plant.",
                ("trade-offs", "trade-off", "balancing"),
            ),
        ),
    ),
    (
        "strategy",
        "Financial effects",
        (
            (
                "S1.34",
                "Financial effects of sustainability matters",
                "Help users see how sustainability matters affect the company's financial position, "
                "performance and cash flows now and over time.",
                ("financial effects", "financial impact", "financial position", "cash flows"),
            ),
            (
                "S1.34(a)",
                "Current financial effects",
                "Cover the effects on the financial statements for this reporting period.",
                ("current financial effects", "impact on results"),
            ),
            (
                "S1.34(b)",
                "Anticipated financial effects",
                "Cover the expected financial effects in future periods and how sustainability matters are "
                "built into financial planning.",
                ("anticipated financial effects", "financial planning", "forecast"),
            ),
            (
                "S1.35",
                "Quantified financial effects",
                "Give figures and narrative on sustainability-related financial effects, both those already "
                "felt and those expected.",
                ("financial effects", "quantified", "impact"),
            ),
            (
                "S1.35(a)",
                "Effects in the period",
                "Explain how sustainability matters have already affected the balance sheet, results and "
                "cash flows this period.",
                ("impact on results", "costs incurred", "revenue impact"),
            ),
            (
                "S1.35(b)",
                "Risk of material adjustment",
                "Identify matters that could well cause a material change to asset or liability carrying "
                "amounts within the next year.",
                ("carrying amount", "impairment", "write-down"),
            ),
            (
                "S1.35(c)",
                "Expected change in financial position",
                "Explain how the balance sheet is expected to evolve under the strategy, considering "
                "investment and funding plans.",
                ("financial position", "balance sheet"),
            ),
            (
                "S1.35(c)(i)",
                "Investment and disposal plans",
                "Cover planned capital spending, acquisitions, disposals, joint ventures, new business lines "
                "and asset retirements, including uncommitted plans.",
                ("capex", "capital expenditure", "investment plan", "divestment", "acquisition"),
            ),
            (
                "S1.35(c)(ii)",
                "Funding sources",
                "Cover where the money to carry out the strategy is expected to come from.",
                ("funding", "financing", "sustainability-linked loan", "social bond"),
            ),
            (
                "S1.35(d)",
                "Expected performance and cash flows",
                "Explain how results and cash flows are expected to move under the strategy.",
                ("revenue", "costs", "cash flows"),
            ),
            (
                "S1.40",
                "When effects are not quantified",
                "If figures on financial effects are left out under the permitted reliefs, explain why and "
                "give qualitative and combined information instead.",
                ("not quantified", "unable to quantify", "qualitative information"),
            ),
            (
                "S1.40(a)",
                "Reason for omitting figures",
                "State why quantitative financial-effect information was not given.",
                ("not quantified", "not separately identifiable"),
            ),
            (
                "S1.40(b)",
                "Qualitative financial effects",
                "Describe the financial effects in words, naming the line items, totals and subtotals in the "
                "financial statements that are or could be hit.",
                ("line items", "qualitative"),
            ),
            (
                "S1.40(c)",
                "Combined financial effects",
                "Give figures for the joint effect of the risk or opportunity together with other factors, "
                "unless such figures would not help users.",
                ("combined effects", "aggregate impact"),
            ),
        ),
    ),
    (
        "strategy",
        "Resilience",
        (
            (
                "S1.41",
                "Resilience",
                "Give a qualitative and, where possible, numeric view of how resilient the strategy and "
                "business model are to sustainability risks, with the method and time horizon used.",
                ("resilience", "resilience assessment", "stress test", "scenario analysis"),
            ),
        ),
    ),
    (
        "risk_management",
        "Risk management processes",
        (
            (
                "S1.44",
                "Sustainability risk management",
                "Describe how sustainability risks and opportunities are found, assessed, ranked and "
                "tracked, and how this fits into enterprise risk management.",
                ("risk management", "enterprise risk management", "erm", "risk register", "risk assessment"),
            ),
            (
                "S1.44(a)",
                "Risk processes and policies",
                "Describe the processes and policies for finding, assessing, ranking and tracking "
                "sustainability risks.",
                ("risk identification", "risk assessment", "risk policy"),
            ),
            (
                "S1.44(a)(i)",
                "Inputs and parameters",
                "Cover the inputs and parameters used, such as data sources and which operations are in "
                "scope.",
                ("data sources", "inputs", "parameters"),
            ),
            (
                "S1.44(a)(ii)",
                "Scenario analysis in risk identification",
                "Say whether and how scenario analysis helps to identify sustainability risks.",
                ("scenario analysis", "risk identification"),
            ),
            (
                "S1.44(a)(iii)",
                "Assessing likelihood and magnitude",
                "Explain how the nature, likelihood and size of risk effects are judged, e.g. through "
                "qualitative factors or numeric thresholds.",
                ("likelihood", "magnitude", "heat map", "risk matrix"),
            ),
            (
                "S1.44(a)(iv)",
                "Prioritising sustainability risks",
                "Say whether and how sustainability risks are ranked against other kinds of risk.",
                ("prioritisation", "prioritization", "principal risks"),
            ),
            (
                "S1.44(a)(v)",
                "Monitoring sustainability risks",
                "Explain how sustainability risks are kept under watch.",
                ("monitoring", "key risk indicators", "risk monitoring"),
            ),
            (
                "S1.44(a)(vi)",
                "Changes to risk processes",
                "Say whether and how the risk processes changed since the prior period.",
                ("process changes", "updated process"),
            ),
            (
                "S1.44(b)",
                "Processes for opportunities",
                "Describe how sustainability opportunities are found, assessed, ranked and tracked.",
                ("opportunity identification", "opportunities"),
            ),
            (
                "S1.44(c)",
                "Integration into overall risk management",
                "Explain how far, and in what way, these processes are built into the company's overall risk "
                "management.",
                ("integrated", "enterprise risk management", "erm"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Metrics",
        (
            (
                "S1.46",
                "Sustainability metrics",
                "For each material sustainability risk and opportunity, report the metrics an applicable "
                "ISSB standard asks for and the metrics the company itself uses to measure and follow it.",
                (
                    "metrics",
                    "kpi",
                    "water",
                    "water withdrawal",
                    "water consumption",
                    "waste",
                    "recycling",
                    "biodiversity",
                    "pollution",
                    "health and safety",
                    "circularity",
                ),
            ),
            (
                "S1.46(a)",
                "Metrics required by a standard",
                "Report the metrics that an applicable ISSB standard requires.",
                ("required metrics", "ifrs s2 metrics"),
            ),
            (
                "S1.46(b)",
                "The company's own metrics",
                "Report the metrics the company uses to measure and follow each risk or opportunity and how "
                "it is performing.",
                ("own metrics", "kpis", "water", "waste", "biodiversity"),
            ),
            (
                "S1.46(b)(i)",
                "Metrics on the risk or opportunity",
                "Metrics that gauge and follow the sustainability risk or opportunity itself.",
                ("water stress", "water withdrawal", "waste generated", "hazardous waste", "protected areas"),
            ),
            (
                "S1.46(b)(ii)",
                "Performance metrics",
                "Metrics that track how the company is doing on that risk or opportunity, including progress "
                "on targets.",
                ("recycling rate", "water intensity", "waste diverted", "performance"),
            ),
            (
                "S1.48",
                "Industry-based metrics",
                "Include metrics linked to the company's industry, business models or activities.",
                ("industry metrics", "sasb", "sector metrics"),
            ),
            (
                "S1.49",
                "Source of external metrics",
                "When a metric comes from outside the ISSB standards, name the source and the metric.",
                ("gri", "sasb", "cdp", "framework", "source"),
            ),
            (
                "S1.50",
                "Entity-developed metrics",
                "For metrics the company devised itself, explain their definition, nature, validation and "
                "calculation.",
                ("own metric", "custom metric", "proprietary metric", "definition"),
            ),
            (
                "S1.50(a)",
                "Metric definition",
                "Give the metric's definition and say whether, and how, it adapts a metric from another "
                "source.",
                ("defined as", "adapted from", "definition"),
            ),
            (
                "S1.50(b)",
                "Type of measure",
                "Say whether the metric is absolute, relative to another metric or qualitative (e.g. a RAG "
                "rating).",
                ("absolute", "ratio", "intensity", "qualitative", "rag status"),
            ),
            (
                "S1.50(c)",
                "Third-party validation",
                "Say whether an external party validates the metric and, if so, who.",
                ("assurance", "assured", "verified", "limited assurance", "reasonable assurance"),
            ),
            (
                "S1.50(d)",
                "Calculation method",
                "Describe how the metric is calculated, its inputs, the limits of the method and key "
                "assumptions.",
                ("calculation", "methodology", "limitations", "assumptions"),
            ),
        ),
    ),
    (
        "metrics_targets",
        "Targets",
        (
            (
                "S1.51",
                "Sustainability targets",
                "Disclose each sustainability target the company has set or must meet by law, with its main "
                "features.",
                (
                    "target",
                    "goal",
                    "commitment",
                    "water target",
                    "zero waste",
                    "waste target",
                    "biodiversity target",
                    "nature positive",
                    "by 2025",
                ),
            ),
            (
                "S1.51(a)",
                "Target metric",
                "State the metric used to set and follow the target.",
                ("target metric", "kpi"),
            ),
            (
                "S1.51(b)",
                "Target level",
                "State the exact target, in numbers or in words.",
                ("target level", "reduce by", "zero waste"),
            ),
            (
                "S1.51(c)",
                "Target period",
                "State the period the target covers.",
                ("target year", "deadline"),
            ),
            (
                "S1.51(d)",
                "Base period",
                "State the base period for measuring progress.",
                ("base year", "baseline"),
            ),
            (
                "S1.51(e)",
                "Milestones and interim targets",
                "Give any milestones or interim targets.",
                ("milestone", "interim target"),
            ),
            (
                "S1.51(f)",
                "Performance against the target",
                "Report how the company is doing against each target and analyse trends or shifts.",
                ("progress", "on track", "achieved", "performance against target"),
            ),
            (
                "S1.51(g)",
                "Target revisions",
                "Describe any changes to the target and why they were made.",
                ("revised", "revision", "updated target"),
            ),
            (
                "S1.52",
                "Consistent metric definitions",
                "Keep metric definitions and calculations steady across periods, and explain any metric "
                "that is changed or swapped out.",
                ("restated", "redefined", "methodology change", "comparability"),
            ),
            (
                "S1.53",
                "Clear labels",
                "Name and describe metrics and targets in clear, precise and meaningful terms.",
                ("definitions", "labels", "glossary"),
            ),
        ),
    ),
)

_S1_GENERAL: tuple[Section, ...] = (
    (
        "general",
        "Sources of guidance",
        (
            (
                "S1.59",
                "Sources of guidance applied",
                "Identify the standards, frameworks and other guidance applied, and the industries whose "
                "guidance was used.",
                ("sasb", "gri", "tcfd", "frameworks", "esrs", "cdsb", "guidance"),
            ),
            (
                "S1.59(a)",
                "Guidance sources used",
                "Name the frameworks, pronouncements, industry practice and other guidance used, including "
                "any SASB disclosure topics.",
                ("sasb", "gri", "tcfd", "esrs", "cdp", "frameworks"),
            ),
            (
                "S1.59(b)",
                "Industries applied",
                "Name the industry or industries whose guidance (ISSB, SASB or other) was applied, including "
                "when choosing metrics.",
                ("industry", "sasb industry", "sector classification", "sics"),
            ),
        ),
    ),
    (
        "general",
        "Location of disclosures",
        (
            (
                "S1.60",
                "Part of general purpose reports",
                "Provide the sustainability disclosures within the general purpose financial reports, e.g. "
                "the annual report or management commentary.",
                ("annual report", "management report", "management commentary", "integrated report"),
            ),
            (
                "S1.62",
                "Clearly identifiable",
                "When the disclosures sit alongside other information, keep them easy to pick out and not "
                "buried.",
                ("clearly identifiable", "separate section", "index"),
            ),
            (
                "S1.63",
                "Cross-referencing",
                "Required information can be brought in by referring to another published report, following "
                "the cross-reference conditions.",
                ("cross-reference", "see page", "incorporated by reference"),
            ),
        ),
    ),
    (
        "general",
        "Timing of reporting",
        (
            (
                "S1.64",
                "Timing and reporting period",
                "Publish the sustainability disclosures together with the financial statements and for the "
                "same period.",
                ("reporting period", "fiscal year", "financial year", "calendar year", "published"),
            ),
            (
                "S1.66",
                "Changed reporting period",
                "If the period end moves and the period is not twelve months, disclose the period covered, "
                "why, and that amounts are not fully comparable.",
                ("change in reporting period", "longer period", "shorter period"),
            ),
            (
                "S1.66(a)",
                "Period covered",
                "State the period the disclosures cover.",
                ("period covered", "reporting period"),
            ),
            (
                "S1.66(b)",
                "Reason for the period length",
                "Explain why the period is not the usual length.",
                ("reason", "period length"),
            ),
            (
                "S1.66(c)",
                "Limited comparability",
                "Note that the amounts cannot be fully compared with earlier periods.",
                ("not comparable", "comparability"),
            ),
            (
                "S1.68",
                "Events after the reporting period",
                "Disclose events, transactions and conditions arising after period end but before "
                "authorisation if leaving them out could sway users' decisions.",
                ("subsequent events", "after the reporting period", "after year end", "post balance sheet"),
            ),
        ),
    ),
    (
        "general",
        "Comparative information",
        (
            (
                "S1.70",
                "Comparative information",
                "Give prior-period comparatives for all reported amounts, and for narrative information when "
                "that aids understanding.",
                ("comparative", "prior year", "previous year", "year-on-year", "compared with last year"),
            ),
        ),
    ),
    (
        "general",
        "Statement of compliance",
        (
            (
                "S1.72",
                "Statement of compliance",
                "A company meeting every ISSB requirement must say so plainly and without reservation, and "
                "may not claim compliance otherwise.",
                ("statement of compliance", "complies with", "in accordance with", "issb", "compliance"),
            ),
        ),
    ),
    (
        "general",
        "Judgements",
        (
            (
                "S1.74",
                "Significant judgements",
                "Explain the judgements, other than estimates, that most shape the sustainability "
                "disclosures.",
                ("judgements", "judgments", "significant judgements", "materiality judgement"),
            ),
        ),
    ),
    (
        "general",
        "Measurement uncertainty",
        (
            (
                "S1.77",
                "Measurement uncertainty",
                "Explain the biggest sources of uncertainty in the reported amounts.",
                ("estimates", "uncertainty", "estimation", "measurement uncertainty"),
            ),
            (
                "S1.78",
                "Amounts with high uncertainty",
                "Flag amounts subject to high measurement uncertainty and explain, for each, its sources and "
                "the assumptions and judgements used.",
                ("high uncertainty", "estimated", "proxy data"),
            ),
            (
                "S1.78(a)",
                "Identify uncertain amounts",
                "Identify which reported amounts carry high measurement uncertainty.",
                ("estimated", "uncertain amounts"),
            ),
            (
                "S1.78(b)",
                "Information on each uncertain amount",
                "For each such amount, describe where the uncertainty comes from and the assumptions made.",
                ("sources of uncertainty", "assumptions"),
            ),
            (
                "S1.78(b)(i)",
                "Sources of uncertainty",
                "Describe what causes the uncertainty, such as reliance on future events, measurement "
                "techniques or the quality of value chain data.",
                ("data quality", "value chain data", "proxy data", "secondary data"),
            ),
            (
                "S1.78(b)(ii)",
                "Assumptions and judgements",
                "Describe the assumptions, approximations and judgements behind the measurement.",
                ("assumptions", "approximations", "extrapolation"),
            ),
        ),
    ),
    (
        "general",
        "Errors",
        (
            (
                "S1.83",
                "Correcting prior period errors",
                "Fix material errors in earlier periods by restating comparatives, unless that is "
                "impracticable.",
                ("restatement", "restated", "error", "correction", "prior period"),
            ),
        ),
    ),
)

SECTIONS: tuple[Section, ...] = _S1_FOUNDATIONS + _S1_CORE + _S1_GENERAL + _S2
