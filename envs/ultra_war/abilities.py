"""The glossary's names as constants: character abilities, active-general abilities, attack tags and status
tags. The rules import these constants (a misspelt one fails at import), `Unit.has` and `Unit.param` refuse
any other name (a misspelt string would otherwise read as "no"), and content.py refuses data that names
anything else. Importing nothing, so every module may use it.

Each entry's rule is read in one place. An entry with several effects is read once per effect, where that
effect applies; its constant says where, so every read of it is found from here."""

# -- character abilities (`Character.abilities`, read with `Unit.has` / `Unit.param`) ---------------------
ALIEN_SPECIALIST = "Alien Specialist"
ATTACK_INITIATIVE = "Attack Initiative"
ATTACK_SUPPORT = "Attack Support"
BACK_STAB_IMMUNITY = "Back Stab Immunity"
BREACH = "Breach"
CHARGE_ATTACK = "Charge Attack"
DEFENSE_INITIATIVE = "Defense Initiative"
DEFENSE_SUPPORT = "Defense Support"
DOUBLE_MOVEMENT = "Double Movement"
DUAL_ATTACK = "Dual Attack"
DUAL_WIELD = "Dual Wield"
"""A second weapon slot (`Unit.weapon_slots_full`); consistency.py also refuses a loaded second weapon
without it (a check of saved states, not a rule)."""
ELECTRONIC_SPECIALIST = "Electronic Specialist"
EMPOWERED = "Empowered"
ENERGY_INNATE = "Energy Innate"
ENERGY_TRANSFER = "Energy Transfer"
ETHEREAL = "Ethereal"
FLIGHT = "Flight"
"""Flying at all: `movement.can_fly` (innate or a flight standard). Two other reads, each of another fact:
a new pawn starts in the air (`Unit.__init__`), and the observation's `_can_fly` is can_fly cached by
character and standard names."""
FREE_STRIKE_MOVEMENT = "Free Strike Movement"
GIGANTIC = "Gigantic"
"""Also a status tag (below), which is what the rules read."""
INITIATIVE = "Initiative"
"""Both initiatives: three attack dice and three defence dice (combat.attack_dice, combat.defense_dice)."""
LEGACY = "Legacy"
LEVEL_CHANGE_MOVEMENT = "Level Change Movement"
MAGIC_INNATE = "Magic Innate"
MAGIC_TRANSFER = "Magic Transfer"
MARTIAL = "Martial"
MECHANICAL_SPECIALIST = "Mechanical Specialist"
MINION_HUB = "Minion Hub"
MULTI_SHOT = "Multi-Shot"
RECHARGE = "Recharge"
REGENERATE = "Regenerate"
RELOAD = "Reload"
STEALTH = "Stealth"
STEALTH_REVEAL = "Stealth Reveal"
"""Two effects: it removes Stealth in its area (attacks.stealthed), and its character cannot be Sneak
Attacked (combat.sneak_refused)."""
STRIKE_BACK = "Strike Back"
TARGETING = "Targeting"
WEAPON_SPECIALIST = "Weapon Specialist"

ABILITIES = frozenset({
    ALIEN_SPECIALIST, ATTACK_INITIATIVE, ATTACK_SUPPORT, BACK_STAB_IMMUNITY, BREACH, CHARGE_ATTACK,
    DEFENSE_INITIATIVE, DEFENSE_SUPPORT, DOUBLE_MOVEMENT, DUAL_ATTACK, DUAL_WIELD, ELECTRONIC_SPECIALIST,
    EMPOWERED, ENERGY_INNATE, ENERGY_TRANSFER, ETHEREAL, FLIGHT, FREE_STRIKE_MOVEMENT, GIGANTIC, INITIATIVE,
    LEGACY, LEVEL_CHANGE_MOVEMENT, MAGIC_INNATE, MAGIC_TRANSFER, MARTIAL, MECHANICAL_SPECIALIST, MINION_HUB,
    MULTI_SHOT, RECHARGE, REGENERATE, RELOAD, STEALTH, STEALTH_REVEAL, STRIKE_BACK, TARGETING, WEAPON_SPECIALIST,
})  # fmt: skip
SPECIALISTS = (ELECTRONIC_SPECIALIST, MECHANICAL_SPECIALIST, ALIEN_SPECIALIST)

# -- active-general abilities (`Character.general_ability`) ------------------------------------------------
AFFILIATE_MOD = "Affiliate Mod"
ATTACK_BONUS = "Attack Bonus"
MORALE = "Morale"

GENERAL_ABILITIES = frozenset({AFFILIATE_MOD, ATTACK_BONUS, MORALE})

# -- attack tags (`AttackSpec.tags`) -----------------------------------------------------------------------
ACID = "Acid"
ARMOR_PIERCE = "Armor Pierce"
DEVIATE_TAG = "Deviate"
"""(Named apart from phases.DEVIATE, the decision it leads to.)"""
DIRECTED = "Directed"
"""Two effects: no sight needed (attacks.aim_ok), Defense Initiative nullified (combat.defense_dice)."""
DISARM = "Disarm"
ENERGY_ATTACK = "Energy Attack"
EXPLOSIVE = "Explosive"
"""An area attack (`AREA_TAGS`): any field in range may be chosen (attacks.aim_ok, attack_targets), the
blast's rings are rolled against (attacks._attacked), and a breachable wall at its centre is breached
(attacks._resolve_attack)."""
FIRE = "Fire"
FRONT_ARCH = "Front Arch"
KAMIKAZE = "Kamikaze"
LINEAR = "Linear"
"""An area attack (`AREA_TAGS`): chosen by its line, not its range (attacks.aim_ok, attack_targets), and
rolled against every character on the line (attacks._attacked)."""
MAGICAL_ATTACK = "Magical Attack"
MAGICAL_FIRE = "Magical Fire"
"""Two effects: magical, so it hits Ethereal characters (attacks.attackable), and a fire (attacks._take_hit)."""
MOVEMENT_DEPRIVATION = "Movement Deprivation"
POWER_DOWN = "Power Down"
RETREAT = "Retreat"
SNEAK_ATTACK = "Sneak Attack"
"""Five effects, each read where it applies: +2 (combat.attack_score), Defense Initiative nullified
(combat.defense_dice), no Strike Back (attacks.roll_attack), no quick window (attacks._declare_attack), and never
at a Stealth Reveal character (combat.sneak_refused)."""
STUN = "Stun"

ATTACK_TAGS = frozenset({
    ACID, ARMOR_PIERCE, DEVIATE_TAG, DIRECTED, DISARM, ENERGY_ATTACK, EXPLOSIVE, FIRE, FRONT_ARCH, KAMIKAZE, LINEAR,
    MAGICAL_ATTACK, MAGICAL_FIRE, MOVEMENT_DEPRIVATION, POWER_DOWN, RETREAT, SNEAK_ATTACK, STUN,
})  # fmt: skip
AREA_TAGS = (EXPLOSIVE, FRONT_ARCH, LINEAR)
"""Attacks that roll against several fields (attacks._attacked)."""

# -- status tags (`Character.tags`) ------------------------------------------------------------------------
BIONIC = "Bionic"
FLYING = "Flying"
MAGICAL = "Magical"
MARK_OF_IVAC = "Mark of Ivac"
ULTRA = "ULTRA"

STATUS_TAGS = frozenset({BIONIC, GIGANTIC, MAGICAL, ULTRA, FLYING, MARK_OF_IVAC})
