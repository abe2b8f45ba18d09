/** The allow-listed tool catalogue the workers use. */
import type { GuardedToolSpec } from '../guard/toolSpec';
import { adsorptionSearchTool } from './adsorptionSearch/adsorptionSearchTool';
import { evaluateHypothesisTool } from './adsorptionSearch/evaluateHypothesisTool';
import { relaxStructureTool } from './adsorptionSearch/relaxStructureTool';
import { importStructureTool, prepareAdsorptionSurfaceTool } from './adsorptionSearch/surfaceTools';
import { adsorptionEnergyTool, beefEnsembleStatsTool, deltaBeTool } from './adsorptionTools';
import { canvasInspectTool, canvasReadTool, canvasWriteTool } from './canvasTools';
import { fitEosTool } from './fitEos';
import { latticeConstantFromVolumeTool } from './latticeConstantFromVolume';
import { generateSeriesTool, makePwInputTool } from './qeTools';
import { selectPseudopotentialsTool } from './selectPseudopotentials';
import { interruptedGeometryTool, relaxedStructureTool } from './relaxedStructure';
import { runPwTool } from './runPw';
import { selectConvergedSettingsTool } from './selectConvergedSettings';
import { selectConvergedSlabTool } from './selectConvergedSlab';
import { buildBulkTool, buildMoleculeTool, buildSlabTool, placeAdsorbateTool } from './structureTools';
import { writeReportTool } from './writeReport';
import { bandPathTool, makeNscfInputTool, runNscfTool } from './bandStructure';
import { bandGapTool, runBandsXTool, runDosXTool, runProjwfcTool } from './postProcessing';
import { relaxationResultTool } from './relaxationResult';
import { magnetizationTool } from './magnetizationTool';
import { energyDifferenceTool } from './energyDifferenceTool';
import { magneticConfigurationTool, writeStructureFilesTool } from './structureOutputs';

export const TOOL_CATALOGUE: readonly GuardedToolSpec[] = [
  canvasInspectTool,
  canvasReadTool,
  canvasWriteTool,
  buildBulkTool,
  buildSlabTool,
  placeAdsorbateTool,
  buildMoleculeTool,
  selectPseudopotentialsTool,
  makePwInputTool,
  generateSeriesTool,
  runPwTool,
  relaxedStructureTool,
  interruptedGeometryTool,
  selectConvergedSettingsTool,
  selectConvergedSlabTool,
  fitEosTool,
  latticeConstantFromVolumeTool,
  adsorptionEnergyTool,
  deltaBeTool,
  beefEnsembleStatsTool,
  importStructureTool,
  prepareAdsorptionSurfaceTool,
  relaxStructureTool,
  evaluateHypothesisTool,
  adsorptionSearchTool,
  bandPathTool,
  makeNscfInputTool,
  runNscfTool,
  runBandsXTool,
  bandGapTool,
  runDosXTool,
  runProjwfcTool,
  relaxationResultTool,
  magnetizationTool,
  energyDifferenceTool,
  magneticConfigurationTool,
  writeStructureFilesTool,
  writeReportTool,
];
